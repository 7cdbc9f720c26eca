import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';
import { batchItems } from '../../api/src/chat/context/pending-turn.ts';

/** The text of every message of a recorded model request, role and content. */
export function promptMessages(req: RecordedRequest): { role: string; content: string }[] {
  return (req.body.messages ?? []).map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''),
  }));
}

/** The final user turn of a recorded request. */
export function finalTurn(req: RecordedRequest): string {
  const messages = promptMessages(req);
  const last = messages.at(-1);
  if (last?.role !== 'user') throw new Error('the request does not end with a user turn');
  return last.content;
}

/** The last message of a final user turn: the turn itself, or a batch's last item (unquoted). */
export function lastItem(turn: string): string {
  return batchItems(turn)?.at(-1)?.text ?? turn;
}

/** Replays snapshot/delta events the way a client must, returning each run's text. */
export function replayReplies(events: readonly VisitorEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'reply.snapshot') texts.set(e.runId, e.text);
    if (e.type === 'reply.delta') {
      const have = texts.get(e.runId) ?? '';
      if (e.offset === have.length) texts.set(e.runId, have + e.text);
      else if (e.offset < have.length) texts.set(e.runId, have.slice(0, e.offset) + e.text);
      else throw new Error(`gap in run ${e.runId}: have ${have.length}, delta at ${e.offset}`);
    }
  }
  return texts;
}
