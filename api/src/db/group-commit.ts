/**
 * What one item of a group came to: its value; the error that item alone is answered with; or
 * `busy`, not done and not refused (its row was locked by another transaction): it runs again,
 * alone, so it waits for the lock without holding a group up.
 */
export type ItemOutcome<O> = { kind: 'done'; value: O } | { kind: 'failed'; error: unknown } | { kind: 'busy' };

export interface GroupCommitOptions<I> {
  /** the most items one group takes */
  maxGroup: number;
  /** groups in flight at once (each holds one pooled connection while it runs) */
  concurrency: number;
  /** items with the same key never run in two groups at once, and commit in submission order */
  keyOf: (item: I) => string;
  /**
   * how many items of one key a group may take (default 1); `run` gets them in submission order
   * and must store them in that order
   */
  perKey?: number;
  /** items that always run in a group of their own (their transaction may roll back as a whole) */
  solo?: (item: I) => boolean;
}

interface Entry<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
  /** turned away `busy` once: it runs alone from now on */
  busy: boolean;
}

/**
 * Group commit: items submitted while groups are in flight wait and then run together, one
 * transaction (and a few set-based statements) for the lot instead of one per item. Nothing
 * waits on a timer: an item submitted to an idle queue runs at once, alone, so the latency
 * of a lone send is unchanged, and groups grow only with the load that makes them worth it.
 *
 * `run` answers each item on its own (a refusal is an outcome, not a throw). Should it throw
 * for a group of several (a deadlock with another transaction, one item's bad data), each of
 * its items runs again alone, so one item's failure never fails the others. A group of one is
 * the place to wait for locks; a larger group should skip what is locked and answer `busy`.
 *
 * @example const sends = new GroupCommit((items) => storeSends(items), { maxGroup: 64, concurrency: 3, keyOf: (s) => s.conversationId })
 */
export class GroupCommit<I, O> {
  private readonly queue: Entry<I, O>[] = [];
  /** keys of the groups in flight: their later items wait (an item turned away `busy` is another thing) */
  private readonly keysInFlight = new Set<string>();
  private running = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<ItemOutcome<O>[]>,
    private readonly opts: GroupCommitOptions<I>,
  ) {}

  /** Resolves once the item's group committed, with its own outcome. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject, busy: false });
      this.pump();
    });
  }

  /** Starts groups while there are free slots and runnable items. */
  private pump(): void {
    while (this.running < this.opts.concurrency) {
      const group = this.takeGroup();
      if (group.length === 0) return;
      this.running++;
      void this.runGroup(group).finally(() => {
        this.running--;
        for (const entry of group) this.keysInFlight.delete(this.opts.keyOf(entry.item));
        this.pump();
      });
    }
  }

  /** The oldest runnable items, up to `perKey` of each key not in flight; a solo item only alone. */
  private takeGroup(): Entry<I, O>[] {
    const group: Entry<I, O>[] = [];
    const perKey = this.opts.perKey ?? 1;
    const taken = new Map<string, number>();
    /** keys with an item left behind in this scan: their later items stay behind too, in order */
    const skipped = new Set<string>();
    for (let i = 0; i < this.queue.length && group.length < this.opts.maxGroup; ) {
      const entry = this.queue[i]!;
      const key = this.opts.keyOf(entry.item);
      const count = taken.get(key) ?? 0;
      const solo = entry.busy || (this.opts.solo?.(entry.item) ?? false);
      if (this.keysInFlight.has(key) || skipped.has(key) || count >= perKey || (solo && group.length > 0)) {
        skipped.add(key);
        i++;
        continue;
      }
      taken.set(key, count + 1);
      group.push(entry);
      this.queue.splice(i, 1);
      if (solo) break;
    }
    for (const entry of group) this.keysInFlight.add(this.opts.keyOf(entry.item));
    return group;
  }

  private async runGroup(group: Entry<I, O>[]): Promise<void> {
    try {
      const outcomes = await this.run(group.map((e) => e.item));
      const again: Entry<I, O>[] = [];
      group.forEach((entry, i) => {
        const outcome = outcomes[i] ?? { kind: 'failed', error: new Error('no outcome for a group item') };
        if (outcome.kind === 'busy') again.push({ ...entry, busy: true });
        else settle(entry, outcome);
      });
      // ahead of everything submitted since, in their order: they came first
      this.queue.unshift(...again);
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // one failure must not fail the others: each item again, alone, one after another (a rare
      // path; all at once would ask the pool for a connection per item). Their keys are still ours.
      for (const entry of group) {
        try {
          const [outcome] = await this.run([entry.item]);
          settle(entry, outcome?.kind === 'busy' || !outcome ? { kind: 'failed', error: err } : outcome);
        } catch (alone) {
          entry.reject(alone);
        }
      }
    }
  }
}

function settle<O>(
  entry: { resolve: (value: O) => void; reject: (err: unknown) => void },
  outcome: Exclude<ItemOutcome<O>, { kind: 'busy' }>,
): void {
  if (outcome.kind === 'done') entry.resolve(outcome.value);
  else entry.reject(outcome.error);
}
