import { boot, onShutdown } from './boot.ts';
import { createReplyWorker } from './chat/start-worker.ts';
import { createHttpServer } from './http/server.ts';
import { siteRoutes } from './http/site-routes.ts';
import { startTitleTimer } from './titles/title-timer.ts';

/** `npm start`: the API, a reply worker, the widget bundle and the demo site in one process. */
const { services, close } = await boot({ role: 'api' });
const worker = createReplyWorker(services);
const server = createHttpServer(services, siteRoutes());
await worker.start();
const titles = startTitleTimer(services);
const { PORT, HOST } = services.config;
server.listen(PORT, HOST, () => console.log(`[heed] listening on http://${HOST}:${PORT}`));

onShutdown(async () => {
  server.close();
  server.closeAllConnections();
  await Promise.all([worker.stop(), titles.stop()]);
  await close();
});
