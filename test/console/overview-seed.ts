import { randomUUID } from 'node:crypto';
import type { Services } from '../../api/src/services.ts';

/**
 * Rows for the overview's tests, written straight to the database at chosen times (the
 * pipeline cannot be asked to reply "three days ago"). Every row is what the pipeline would
 * write: a conversation, a run with its timings, the assistant message it wrote.
 */
export class OverviewSeed {
  private fence = 0;

  constructor(
    private readonly services: Services,
    readonly siteId: string,
    readonly visitorId: string,
  ) {}

  /** A new site with one visitor, to seed into. */
  static async site(services: Services, name = 'Seeded site'): Promise<OverviewSeed> {
    const site = await services.db.site.create({ data: { key: `seed-${randomUUID().slice(0, 8)}`, name }, select: { id: true } });
    const visitor = await services.db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
    return new OverviewSeed(services, site.id, visitor.id);
  }

  /** A conversation started at `at`. */
  async conversation(at: Date): Promise<string> {
    const row = await this.services.db.conversation.create({
      data: { siteId: this.siteId, visitorId: this.visitorId, createdAt: at, updatedAt: at },
      select: { id: true },
    });
    return row.id;
  }

  /**
   * A run started at `at`, the visitor's message it claimed (sent a second before) and its
   * assistant message: a reply, or a failed reply when `error` is set. `ttftMs` null leaves `firstTokenAt` unset (as a run before the field existed).
   */
  async run(
    conversationId: string,
    at: Date,
    opts: { ttftMs?: number | null; error?: string; promptTokens?: number; completionTokens?: number; costUsd?: number } = {},
  ): Promise<void> {
    const { db } = this.services;
    const ttftMs = opts.ttftMs === undefined ? 300 : opts.ttftMs;
    const endedAt = new Date(at.getTime() + (ttftMs ?? 0) + 500);
    const run = await db.run.create({
      data: {
        conversationId,
        fence: ++this.fence,
        status: opts.error ? 'failed' : 'completed',
        error: opts.error ?? null,
        workerId: 'seed',
        leaseUntil: endedAt,
        attempts: 1,
        startedAt: at,
        firstTokenAt: ttftMs === null ? null : new Date(at.getTime() + ttftMs),
        endedAt,
        promptTokens: opts.promptTokens ?? null,
        completionTokens: opts.completionTokens ?? null,
        costUsd: opts.costUsd ?? null,
      },
      select: { id: true },
    });
    // the latest run is the one holding the conversation's fence, as a claim leaves it
    await db.conversation.update({ where: { id: conversationId }, data: { fence: this.fence }, select: { id: true } });
    // the visitor's message the run answered: a failed run leaves its batch `failed` until a retry
    await db.message.create({
      data: {
        conversationId,
        visitorId: this.visitorId,
        role: 'user',
        content: 'A question from the visitor',
        state: opts.error ? 'failed' : 'answered',
        runId: run.id,
        createdAt: new Date(at.getTime() - 1000),
      },
      select: { id: true },
    });
    await db.message.create({
      data: {
        conversationId,
        visitorId: this.visitorId,
        role: 'assistant',
        content: opts.error ? 'The assistant could not be reached.' : 'Here is your answer.',
        error: opts.error ?? null,
        runId: run.id,
        createdAt: endedAt,
      },
      select: { id: true },
    });
  }

  /** A title check at `at` that cost `costUsd`. */
  async titleCheck(conversationId: string, at: Date, costUsd: number): Promise<void> {
    await this.services.db.titleCheck.create({
      data: { conversationId, siteId: this.siteId, outcome: 'changed', model: 'test-model', costUsd, createdAt: at },
      select: { id: true },
    });
  }
}
