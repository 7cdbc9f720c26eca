import { boot, exitWith, onShutdown } from './boot.ts';
import { createReplyWorker } from './chat/schedule/start-worker.ts';
import { lowerWorkerPriority } from './chat/schedule/worker-priority.ts';
import { startTitleTimer } from './titles/title-timer.ts';
import { startSyncTimer } from './knowledge/sync-timer.ts';
import { startEmailTimers } from './email/email-timers.ts';
import { startUnsentSweep } from './attachments/sweep-unsent.ts';
import { startRetentionSweep } from './privacy/retention-sweep.ts';

/** `npm run worker`: a reply worker (and the title, knowledge and email timers and the sweeps) alone; run as many as you like against one Postgres + Redis. */
const { services, close } = await boot({ role: 'worker' }).catch(exitWith);
const nice = lowerWorkerPriority(services.config.WORKER_NICE);
const worker = createReplyWorker(services);
await worker.start();
const titles = startTitleTimer(services);
const knowledge = startSyncTimer(services);
const email = startEmailTimers(services);
const sweep = startUnsentSweep(services);
const retention = startRetentionSweep(services);
services.logger.child({ workerId: worker.id }).info({ nice }, 'worker started');

onShutdown(async () => {
  await Promise.all([worker.stop({ release: true }), titles.stop(), knowledge.stop(), email.stop(), sweep.stop(), retention.stop()]);
  await close();
}, services.logger);
