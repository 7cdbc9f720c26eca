import type { Redis } from '../redis/client.ts';
import type { Services } from '../services.ts';
import { sendGroups, type SendInput } from './send-group.ts';
import type { MessageView } from './views.ts';
import { sendWake } from '../chat/schedule/schedule-wake.ts';

export type { SendInput } from './send-group.ts';

/**
 * Puts a visitor's message in the outbox: a durable `pending` row, committed with its event
 * before the call returns. Idempotent on `clientMessageId`: a retried send (even two at
 * once) returns the same row and schedules nothing new. The first message also becomes
 * the fallback title. Workers are woken after commit; the batch is due after the debounce.
 *
 * With `answersRequestId` the message also answers the conversation's open question, in the
 * same transaction: the request becomes `answered` (so input needed clears at once, before the
 * answering run even starts) and the next run hands the text to the model as that tool call's
 * result. NOT_FOUND for a request of another conversation; BAD_REQUEST once it is closed (a
 * racing second answer loses on the row lock and stores nothing).
 *
 * A conversation holds at most PENDING_MAX_MESSAGES unanswered messages of PENDING_MAX_CHARS
 * characters together (they all become the next prompt's final turn, which no token budget
 * trims): a send beyond either is refused with TOO_MANY_REQUESTS `pending_batch_full` and
 * stores nothing. A retry of a message already stored still returns it.
 *
 * The visitor's token was checked by signature only (`signedVisitorProcedure`): a send for a
 * visitor deleted since is refused here, `visitor_token_invalid`, like a forged token.
 *
 * Sends that arrive while others are being stored commit together (send-group.ts): one
 * transaction and five round trips for the group, not for each send.
 */
export async function sendMessage(s: Services, input: SendInput): Promise<MessageView> {
  const sent = await sendGroups(s).submit(input);
  if (sent.isNew) {
    s.metrics.sends.inc();
    await wakeWorkers(s, input.conversationId);
  }
  return sent.view;
}

/** Schedule wake-ups per Redis client: the one being published, and the next one if sends committed meanwhile. */
const wakes = new WeakMap<Redis, { sending: Promise<void> | null; next: Promise<void> | null; conversationId: string }>();

/**
 * Tells the workers a batch was scheduled. Workers only re-read which batches are due (the
 * message's conversation id is informational), so sends that commit while a wake-up is being
 * published share the next one: at 64 concurrent visitors that is one publish per Redis round
 * trip instead of one per send, and each wake-up costs every worker a due-batches query.
 * Resolves once a wake-up published after this send's commit went out (a failure rejects it).
 */
export function wakeWorkers(s: Services, conversationId: string): Promise<void> {
  let wake = wakes.get(s.redis);
  if (!wake) wakes.set(s.redis, (wake = { sending: null, next: null, conversationId }));
  const w = wake;
  w.conversationId = conversationId;
  const publish = (): Promise<void> => {
    w.next = null;
    const sending = s.redis.publish(s.keys.scheduleChannel(), sendWake(w.conversationId)).then(() => undefined);
    w.sending = sending;
    const settle = () => {
      if (w.sending === sending) w.sending = null;
    };
    sending.then(settle, settle);
    return sending;
  };
  if (!w.sending) return publish();
  w.next ??= w.sending.then(publish, publish);
  return w.next;
}
