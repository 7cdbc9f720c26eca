import type { Unfinished } from './unfinished.ts';

/** How the drain ended, for judging what it left unfinished. */
export interface DrainEnd {
  /** CHAOS_DRAIN_S */
  budgetS: number;
  /** what it could have used: the budget, unless the run's overall bound cut it */
  hadS: number;
  /** what it used: less when everything was answered and delivered sooner */
  tookS: number;
  /** 1-minute load average when it ended */
  loadAverage: number;
  cores: number;
}

/**
 * `violation`: Heed left work undone that the machine had time for (exit 1); `inconclusive`: the
 * run judged too little of its work to pass (exit 2, the run could not finish); null: within the bound.
 */
export type UnfinishedOutcome = 'violation' | 'inconclusive' | null;

/**
 * The bound on unfinished work. It fails the run when
 * - anything is unfinished after a drain that had its whole budget on a machine with CPU to spare
 *   (load average below 2 × cores): the recorded runs answered with p99 under 15 s at load up to 8
 *   on two cores, so a message still open after a full drain (60 s by default) on a quieter machine
 *   is a stuck pipeline, a fault of Heed's (exit 1); or
 * - more than `maxPercent` of the sent messages are unfinished, whatever the machine: the
 *   invariants then judged too little of the run for a pass to mean anything (the recorded runs
 *   left none; the one on a machine past its limit, 8 %), so it is inconclusive (exit 2).
 * Between the two (a busy machine, or a drain cut short) unfinished work is reported, not failed.
 */
export function judgeUnfinished(
  u: Unfinished,
  sent: number,
  drain: DrainEnd,
  maxPercent: number,
): { outcome: UnfinishedOutcome; why: string } {
  if (u.messages === 0 && u.streams === 0) return { outcome: null, why: 'nothing unfinished' };
  const busy = drain.loadAverage >= 2 * drain.cores;
  const fullDrain = drain.hadS >= drain.budgetS;
  if (!busy && fullDrain) {
    return {
      outcome: 'violation',
      why: `the drain had its whole ${drain.budgetS} s at load average ${drain.loadAverage} (below 2 × ${drain.cores} cores): nothing may be left unfinished`,
    };
  }
  const because = busy
    ? `load average ${drain.loadAverage} ≥ 2 × ${drain.cores} cores`
    : `the drain had ${drain.hadS} of its ${drain.budgetS} s`;
  if (u.messages > (sent * maxPercent) / 100) {
    return {
      outcome: 'inconclusive',
      why: `${because}, and more than ${maxPercent} % of the ${sent} sent messages are unfinished: too few judged for a pass`,
    };
  }
  return { outcome: null, why: `within the bound: ${because}, and at most ${maxPercent} % of the ${sent} sent messages are unfinished` };
}
