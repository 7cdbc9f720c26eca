/** A pass that runs again and again in the background of a process. */
export interface PassTimer {
  /** no new pass starts; the running one is told to stop (its signal aborts) and is awaited */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, the next scheduled when the previous one ends, so the passes of
 * one process never overlap; a pass that throws is reported to `onError` and the next one still
 * comes. The timer does not keep the process alive. `intervalMs <= 0` runs nothing.
 * @example const timer = startPassTimer(60_000, (signal) => syncDue(signal), (err) => log.error({ err }));
 */
export function startPassTimer(
  intervalMs: number,
  pass: (signal: AbortSignal) => Promise<void>,
  onError: (err: unknown) => void,
  /** `atStart`: the first pass runs at once instead of one interval after the start */
  opts: { atStart?: boolean } = {},
): PassTimer {
  if (intervalMs <= 0) return { stop: async () => {} };
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  const tick = () => {
    running = pass(stopping.signal)
      .catch(onError)
      .finally(() => {
        running = null;
        schedule();
      });
  };
  if (opts.atStart) tick();
  else schedule();
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
