import { boot, onShutdown } from './boot.ts';
import { createReplyWorker } from './chat/start-worker.ts';
import { createHttpServer } from './http/server.ts';

/** `npm start`: the API and a reply worker in one process. */
const { services, close } = await boot({ role: 'api' });
const worker = createReplyWorker(services);
const server = createHttpServer(services, {
  '/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Heed</title><h1>Heed is running</h1><p>API at <code>/trpc</code>, health at <a href="/healthz">/healthz</a>.</p>');
  },
});
await worker.start();
const { PORT, HOST } = services.config;
server.listen(PORT, HOST, () => console.log(`[heed] listening on http://${HOST}:${PORT}`));

onShutdown(async () => {
  server.close();
  server.closeAllConnections();
  await worker.stop();
  await close();
});
