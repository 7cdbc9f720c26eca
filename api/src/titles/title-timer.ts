import type { Services } from '../services.ts';
import { runTitlePass, type TitlePassDeps } from './title-pass.ts';
import { titleSettings, type TitleSettings } from './title-settings.ts';

export interface TitleTimer {
  /** no new pass starts; the running one hands its in-flight claims back and is awaited */
  stop(): Promise<void>;
}

/**
 * Runs a title pass every `TITLE_PASS_MS` in this process (every API and worker process
 * runs one; their claims never collide). The next pass is scheduled when the previous one
 * ends, so passes in one process never overlap. `TITLE_PASS_MS=0` turns it off: the cron
 * route, or tests calling runTitlePass, drive titles instead.
 * @example const timer = startTitleTimer(services); … await timer.stop();
 */
export function startTitleTimer(
  s: TitlePassDeps & Pick<Services, 'config'>,
  opts: { intervalMs?: number; settings?: TitleSettings } = {},
): TitleTimer {
  const intervalMs = opts.intervalMs ?? s.config.TITLE_PASS_MS;
  if (intervalMs <= 0) return { stop: async () => {} };
  const settings = opts.settings ?? titleSettings(s.config);
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  const tick = () => {
    running = runTitlePass(s, settings, { signal: stopping.signal })
      .then(({ claimed, recovered, outcomes }) => {
        if (claimed + recovered > 0) s.logger.info({ titles: { recovered, ...outcomes } }, 'title pass');
      })
      .catch((err: unknown) => s.logger.error({ err }, 'title pass failed'))
      .finally(() => {
        running = null;
        schedule();
      });
  };
  schedule();
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
