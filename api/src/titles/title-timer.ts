import type { Services } from '../services.ts';
import { runTitlePass, type TitlePassDeps } from './title-pass.ts';
import { titleSettings, type TitleSettings } from './title-settings.ts';
import { startPassTimer, type PassTimer } from '../timers/pass-timer.ts';

/** Its `stop()`: no new pass starts; the running one hands its in-flight claims back and is awaited. */
export type TitleTimer = PassTimer;

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
  const settings = opts.settings ?? titleSettings(s.config);
  return startPassTimer(
    intervalMs,
    async (signal) => {
      const { claimed, recovered, outcomes } = await runTitlePass(s, settings, { signal });
      if (claimed + recovered > 0) s.logger.info({ titles: { recovered, ...outcomes } }, 'title pass');
    },
    (err) => s.logger.error({ err }, 'title pass failed'),
  );
}
