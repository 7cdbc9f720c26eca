import { z } from 'zod';
import { type Random, sleep } from '../random.ts';
import { ChaosEventStream } from './event-stream.ts';
import { call } from './wire.ts';

/** One visitor message as the sender saw it. */
export interface SentMessage {
  clientMessageId: string;
  conversationId: string;
  content: string;
  /** first attempt (the visitor pressed send) */
  sentAt: number;
  /** the API confirmed it stored the message; null if it never did */
  ackedAt: number | null;
  /** the stored row's id, from the acknowledgement */
  messageId: string | null;
  /** why the send was never acknowledged */
  error?: string;
}

export interface ChaosVisitor {
  visitorId: string;
  token: string;
  conversationIds: string[];
  stream: ChaosEventStream | null;
}

const WORDS =
  'order parcel refund invoice delivery size colour return address payment coupon discount warranty account password shipping tracking exchange gift voucher'.split(
    ' ',
  );

/**
 * Starts the run's visitors: one anonymous visitor per two conversations, through the real
 * API. Some keep an event stream open from before their first message (`streamShare`).
 */
export async function openVisitors(opts: {
  apis: readonly string[];
  siteKey: string;
  conversations: number;
  streamShare: number;
  random: Random;
}): Promise<ChaosVisitor[]> {
  const visitors: ChaosVisitor[] = [];
  for (let v = 0; v * 2 < opts.conversations; v++) {
    const random = opts.random.fork();
    const base = { apis: opts.apis, random, deadline: Date.now() + 60_000 };
    const session = await call(
      'session.start',
      'mutation',
      { siteKey: opts.siteKey, timeZone: random.pick(['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC']) },
      z.object({ visitorToken: z.string(), visitorId: z.string() }),
      base,
    );
    const withToken = { ...base, token: session.visitorToken };
    const conversationIds: string[] = [];
    for (let c = 0; c < 2 && v * 2 + c < opts.conversations; c++) {
      conversationIds.push((await call('conversation.create', 'mutation', undefined, z.object({ id: z.string() }), withToken)).id);
    }
    let stream: ChaosEventStream | null = null;
    if (random.next() < opts.streamShare) {
      const { cursor } = await call('conversation.list', 'query', undefined, z.object({ cursor: z.string() }), withToken);
      stream = new ChaosEventStream(opts.apis, session.visitorToken, cursor, random.fork());
      stream.start();
    }
    visitors.push({ visitorId: session.visitorId, token: session.visitorToken, conversationIds, stream });
  }
  return visitors;
}

/**
 * Sends `count` messages in one conversation within `seconds`, one after another as a person
 * types them (the widget's outbox also sends in order): send times are random over the window
 * (a Poisson process given its count), and about a third of the messages follow the one before
 * within 50–250 ms instead (quick bursts, folded into one batch by the debounce). Each has its own
 * `clientMessageId`, kept across retries. Times are planned on the clock, so a visitor held up by
 * an outage catches up afterwards, as an outbox flushing does.
 */
export async function sendScript(opts: {
  apis: readonly string[];
  visitor: ChaosVisitor;
  conversationId: string;
  tag: string;
  count: number;
  seconds: number;
  /** start no new message after this time (ms since the epoch): the run is bounded */
  stopAt: number;
  random: Random;
  sent: SentMessage[];
}): Promise<void> {
  const { random } = opts;
  const start = Date.now();
  const plan = Array.from({ length: opts.count }, () => start + random.next() * opts.seconds * 1000).sort((a, b) => a - b);
  for (let i = 1; i < plan.length; i++) if (random.next() < 0.35) plan[i] = plan[i - 1]! + random.int(50, 250);
  for (let n = 1; n <= opts.count; n++) {
    // a plan longer than the bound must not sleep past it: the drain's time follows
    await sleep(Math.min(plan[n - 1]!, opts.stopAt + 1) - Date.now());
    if (Date.now() > opts.stopAt) return;
    const clientMessageId = `${opts.tag}-${n}-${Math.floor(random.next() * 1e9).toString(36)}`;
    const words = Array.from({ length: random.int(2, 8) }, () => random.pick(WORDS)).join(' ');
    // the tag lets the checker find this exact message in every prompt the model received
    const content = `Message ${n} about my ${words} [cm:${clientMessageId}]`;
    const record: SentMessage = {
      clientMessageId,
      conversationId: opts.conversationId,
      content,
      sentAt: Date.now(),
      ackedAt: null,
      messageId: null,
    };
    opts.sent.push(record);
    try {
      const stored = await call(
        'message.send',
        'mutation',
        { conversationId: opts.conversationId, clientMessageId, content },
        z.object({ id: z.string() }),
        { apis: opts.apis, token: opts.visitor.token, random, deadline: Math.max(opts.stopAt, Date.now()) + 30_000 },
      );
      record.ackedAt = Date.now();
      record.messageId = stored.id;
    } catch (err) {
      // never acknowledged: the checker reports it (a refusal or that long of failures is a finding)
      record.error = err instanceof Error ? err.message : String(err);
    }
  }
}

/** Asks again for a failed reply, as a visitor pressing "retry" does, giving up at `deadline` (the drain's end). */
export async function retryFailed(
  apis: readonly string[],
  visitor: ChaosVisitor,
  conversationId: string,
  random: Random,
  deadline: number,
): Promise<number> {
  const { requeued } = await call('message.retry', 'mutation', { conversationId }, z.object({ requeued: z.number() }), {
    apis,
    token: visitor.token,
    random,
    deadline,
    attemptTimeoutMs: Math.max(1000, Math.min(10_000, deadline - Date.now())),
  });
  return requeued;
}

/** The `[cm:…]` tags in a text: which visitor messages a prompt shows. */
export function messageTags(text: string): string[] {
  return [...text.matchAll(/\[cm:([A-Za-z0-9_-]+)\]/g)].map((m) => m[1]!);
}
