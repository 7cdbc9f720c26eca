import { lastUserText } from '../api/src/model-server/last-user-text.ts';
import { waitUntil } from '../test/support/harness.ts';
import { type HeedProcess, startHeedProcess } from './debounce/heed-process.ts';
import { rounded, sleep, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';

/** The widget's throttle: a typing signal at the first keystroke after a send, then at most one a second. */
const SIGNAL_EVERY_MS = 1000;
/** the old rule's wait: every batch waited the whole debounce, typing or not */
const DEBOUNCE_MS = 1500;

export interface TypingDebounceResult {
  lone: number;
  bursts: number;
  /** send → model request for a lone message (nothing typed after it), with the shipped defaults */
  loneMs: Summary;
  /** the same, in the same run, with the old rule (SEND_SETTLE_MS = DEBOUNCE_MS): the anchor */
  loneOldRuleMs: Summary;
  /** scripted "send, keep typing, send again within 2 s" bursts answered in one batch */
  oneBatchShare: number;
  /** the same bursts with the old rule and no typing signals, as the widget was before them (the anchor) */
  oneBatchShareOldRule: number;
}

/**
 * The typing-aware debounce as visitors meet it, against Heed in its own process (production
 * mode, the shipped SEND_SETTLE_MS and DEBOUNCE_MS) and, as the anchor in the same run, the same
 * process with the old rule. Lone messages: how soon the model is asked. Bursts: a visitor keeps
 * typing right after a send (first keystroke 100–200 ms later, a human's gap between keys) and
 * sends again 0.6–1.9 s after the first send, signalling as the widget does.
 */
export async function measureTypingDebounce(): Promise<TypingDebounceResult> {
  const lone = Number(process.env.BENCH_TYPING_LONE ?? 40);
  const bursts = Number(process.env.BENCH_TYPING_BURSTS ?? 40);
  const shipped = await startHeedProcess({});
  const oldRule = await startHeedProcess({ DEBOUNCE_MS: String(DEBOUNCE_MS), SEND_SETTLE_MS: String(DEBOUNCE_MS) });
  try {
    return {
      lone,
      bursts,
      loneMs: await probeLone(shipped, lone),
      loneOldRuleMs: await probeLone(oldRule, lone),
      oneBatchShare: await probeBursts(shipped, bursts, { signal: true }),
      oneBatchShareOldRule: await probeBursts(oldRule, bursts, { signal: false }),
    };
  } finally {
    await Promise.allSettled([shipped.stop(), oldRule.stop()]);
  }
}

/** One message per new conversation, nothing typed after it: send `createdAt` → the model server received the request. */
async function probeLone(heed: HeedProcess, n: number): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const conversationId = await heed.conversation(i % 100 === 0);
    const content = `lone probe ${i} ${crypto.randomUUID()}`;
    const sent = await heed.send(conversationId, content);
    const request = await waitUntil(
      `the model request of lone probe ${i}`,
      () => heed.model.requests.find((r) => lastUserText(r.body.messages) === content),
      10_000,
    );
    samples.push(request.receivedAt - Date.parse(sent.createdAt));
    await sleep(Math.random() * 50);
  }
  return rounded(summarize(samples));
}

/** The share of bursts whose two messages one run answered; `signal`: the visitor's typing is signalled as the widget does. */
async function probeBursts(heed: HeedProcess, n: number, o: { signal: boolean }): Promise<number> {
  let oneBatch = 0;
  for (let i = 0; i < n; i++) {
    const conversationId = await heed.conversation(i % 100 === 0);
    const start = Date.now();
    const first = await heed.send(conversationId, `burst ${i}: is the Ridge 40 waterproof?`);
    const secondAt = start + 600 + Math.random() * 1300;
    // typing: the first keystroke 100–200 ms after Enter, a signal then and every second while it lasts
    await sleep(100 + Math.random() * 100);
    while (Date.now() < secondAt) {
      if (o.signal) await heed.typing(conversationId, first.clientMessageId);
      await sleep(Math.max(0, Math.min(SIGNAL_EVERY_MS, secondAt - Date.now())));
    }
    await heed.send(conversationId, `burst ${i}: and does it fit a laptop?`);
    const done = await waitUntil(
      `both messages of burst ${i} answered`,
      async () => {
        const b = await heed.batchesOf(conversationId);
        return b.answered === 2 && b;
      },
      15_000,
    );
    if (done.runs === 1) oneBatch++;
  }
  return oneBatch / n;
}

/** The section as printed. */
export function formatTypingDebounce(r: TypingDebounceResult): string {
  const row = (name: string, s: Summary) => [name, s.p50, s.p99, s.max, s.mean];
  return formatSection(
    '10. Typing-aware debounce: a lone message, and bursts typed on',
    [
      'Heed in its own process (API + worker, production mode); model server and visitor outside it',
      `shipped: SEND_SETTLE_MS and DEBOUNCE_MS at their defaults; old rule (the anchor, same run): every batch waits DEBOUNCE_MS=${DEBOUNCE_MS} after its newest send`,
      `${r.lone} lone messages, each on a new conversation; ${r.bursts} bursts: send, keep typing (signalled as the widget does), send again within 2 s`,
    ],
    `${formatTable(['send → model request, ms', 'p50', 'p99', 'max', 'mean'], [row('lone message, shipped', r.loneMs), row('lone message, old rule', r.loneOldRuleMs)])}\n${formatTable(
      ['bursts answered in one batch', 'share'],
      [
        ['shipped (goal ≥ 95 %)', `${(r.oneBatchShare * 100).toFixed(0)} %`],
        ['old rule, no typing signals', `${(r.oneBatchShareOldRule * 100).toFixed(0)} %`],
      ],
    )}`,
  );
}
