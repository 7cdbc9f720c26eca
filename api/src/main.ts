import { seedDemoKnowledge } from './db/seed-demo.ts';
import { syncSource } from './knowledge/sync-source.ts';
import { startSyncTimer } from './knowledge/sync-timer.ts';
import { boot, exitWith, onShutdown } from './boot.ts';
import { createReplyWorker } from './chat/schedule/start-worker.ts';
import { createHttpServer } from './http/server.ts';
import { siteRoutes } from './http/site-routes.ts';
import { requestHostname } from './http/request-host.ts';
import { startTitleTimer } from './titles/title-timer.ts';
import { startEmailTimers } from './email/email-timers.ts';
import { startUnsentSweep } from './attachments/sweep-unsent.ts';
import { startRetentionSweep } from './privacy/retention-sweep.ts';
import { bootstrapOwner } from './operators/bootstrap-owner.ts';
import { createDemoShop } from '../../demo/server.ts';

/**
 * `npm start`: the API, a reply worker and the widget bundle in one process, and, while a
 * demo site is seeded, the demo shop on its own origin (DEMO_PORT), embedding the widget
 * from the API's origin exactly as a customer's site does. With HEED_WORKER=0 the process
 * serves the API alone and `npm run worker` processes answer: the two then scale apart
 * (a reply worker's CPU no longer slows sends; bench/ingest.ts runs them that way).
 */
const { services, close } = await boot({ role: 'api' }).catch(exitWith);
await bootstrapOwner(services).catch(exitWith);
const { PORT, HOST, DEMO_SITE_KEY, PUBLIC_URL } = services.config;
const demoPort = DEMO_SITE_KEY ? (services.config.DEMO_PORT ?? PORT + 1) : undefined;
const withWorker = services.config.HEED_WORKER !== '0';
const worker = withWorker ? createReplyWorker(services) : null;
const server = await createHttpServer(services, siteRoutes({ demoPort, production: services.config.NODE_ENV === 'production' }));
await worker?.start();
const titles = withWorker ? startTitleTimer(services) : null;
const knowledge = withWorker ? startSyncTimer(services) : null;
const email = withWorker ? startEmailTimers(services) : null;
const sweep = withWorker ? startUnsentSweep(services) : null;
const retention = withWorker ? startRetentionSweep(services) : null;
if (!withWorker) services.logger.info('HEED_WORKER=0: no reply worker in this process; run `npm run worker` beside it');
server.listen(PORT, HOST, () => services.logger.info(`API listening on http://${HOST}:${PORT}/`));

const shop = demoPort
  ? createDemoShop({
      siteKey: DEMO_SITE_KEY,
      heedUrl: (req) => PUBLIC_URL ?? `http://${requestHostname(req, HOST)}:${PORT}/`,
    })
  : null;
shop?.listen(demoPort, HOST, () => {
  services.logger.info(`demo shop (another origin, embedding the widget) on http://${HOST}:${demoPort}/`);
  // the shop's help pages are the demo assistant's knowledge: synced now, then daily by the worker
  void seedDemoKnowledge(services.db, DEMO_SITE_KEY, `http://${loopbackOf(HOST)}:${demoPort}/sitemap.xml`)
    .then((id) => (id ? syncSource(services, id) : null))
    .catch((err: unknown) => services.logger.warn({ err }, 'the demo shop’s pages could not be synced'));
});

onShutdown(async () => {
  for (const s of [server, shop]) {
    s?.close();
    s?.closeAllConnections();
  }
  await Promise.all([worker?.stop({ release: true }), titles?.stop(), knowledge?.stop(), email?.stop(), sweep?.stop(), retention?.stop()]);
  await close();
}, services.logger);

/** Where this process reaches a server it listens on at `host`: a wildcard address means loopback. */
function loopbackOf(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
}
