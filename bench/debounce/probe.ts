import { randomUUID } from 'node:crypto';
import { lastUserText } from '../../api/src/model-server/last-user-text.ts';
import type { ModelServer } from '../../api/src/model-server/server.ts';
import { waitUntil, type TestHeed } from '../../test/support/harness.ts';
import { rounded, sleep, summarize, type Summary } from '../stats.ts';

/** A Heed the debounce probes run against, wherever its worker lives. */
export interface ProbeTarget {
  /** where Heed's worker, the model server and the visitor run, as printed */
  where: string;
  /** the model server the worker calls: it records when each request arrived */
  model: ModelServer;
  /** a new conversation, of a new visitor when asked (a visitor may have at most 200) */
  conversation(newVisitor: boolean): Promise<string>;
  send(conversationId: string, content: string): Promise<{ createdAt: string }>;
  /** the conversation's first run, once claimed */
  firstRun(conversationId: string): Promise<{ startedAt: Date; ended: boolean } | null | undefined>;
}

export interface ProbeFigures {
  where: string;
  /** batch due (send `createdAt` + DEBOUNCE_MS) → the model server received the request */
  overheadMs: Summary;
  /** batch due → the claim statement ran (`Run.startedAt`, after the fence bump): timer, lock, run limit */
  dueToClaimMs: Summary;
  /** claim began → model request received: claim, context, build, SDK */
  claimToRequestMs: Summary;
  /** every sample of `overheadMs`, in send order, to find what an outlier coincided with */
  overheadSamplesMs: number[];
}

/**
 * One send at a time, each on a new conversation, each waiting for the previous run to end, so
 * every sample starts from an idle worker; a random 0–50 ms gap keeps sends from lining up with
 * the worker's poll timer. `createdAt` is the send transaction's start (Postgres `now()`, to the
 * ms), the same instant the worker schedules from, so this is "late by the system's own rule".
 */
export async function probeDebounce(target: ProbeTarget, o: { debounceMs: number; sends: number; warmup: number }): Promise<ProbeFigures> {
  const overhead: number[] = [];
  const dueToClaim: number[] = [];
  const claimToRequest: number[] = [];
  for (let i = 0; i < o.warmup + o.sends; i++) {
    const conversationId = await target.conversation(i % 100 === 0);
    const content = `debounce probe ${i} ${randomUUID()}`;
    const sent = await target.send(conversationId, content);
    const request = await waitUntil(
      `the model request of probe ${i}`,
      () => target.model.requests.find((r) => lastUserText(r.body.messages) === content),
      5_000,
    );
    const run = await waitUntil(
      `the run of probe ${i} to end`,
      async () => {
        const first = await target.firstRun(conversationId);
        return first?.ended && first;
      },
      5_000,
    );
    if (i >= o.warmup) {
      const dueAt = Date.parse(sent.createdAt) + o.debounceMs;
      overhead.push(request.receivedAt - dueAt);
      dueToClaim.push(run.startedAt.getTime() - dueAt);
      claimToRequest.push(request.receivedAt - run.startedAt.getTime());
    }
    await sleep(Math.random() * 50);
  }
  return {
    where: target.where,
    overheadMs: rounded(summarize(overhead)),
    dueToClaimMs: rounded(summarize(dueToClaim)),
    claimToRequestMs: rounded(summarize(claimToRequest)),
    overheadSamplesMs: overhead,
  };
}

/** The in-process stack of the other sections: API, worker, model server and visitor share one event loop. */
export function inProcessTarget(heed: TestHeed): ProbeTarget {
  let visitor: Awaited<ReturnType<TestHeed['visitor']>> | null = null;
  return {
    where: 'everything in the bench process (API, worker, model server, visitor: one event loop)',
    model: heed.model,
    async conversation(newVisitor) {
      if (newVisitor || !visitor) visitor = await heed.visitor();
      return visitor.conversation();
    },
    send: (conversationId, content) => visitor!.send(conversationId, content),
    async firstRun(conversationId) {
      const run = await heed.services.db.run.findFirst({
        where: { conversationId },
        orderBy: { fence: 'asc' },
        select: { startedAt: true },
      });
      return run && { startedAt: run.startedAt, ended: heed.runs.some((r) => r.conversationId === conversationId) };
    },
  };
}
