import { boot, exitWith, onShutdown } from '../../api/src/boot.ts';
import { createHttpServer } from '../../api/src/http/server.ts';
import { installSpanHook } from './span-hook.ts';

/**
 * The ingest bench's API process: what `npm start` runs with HEED_WORKER=0 (api/src/main.ts
 * without the reply worker and title timer: the issue measures one API process with the worker
 * elsewhere, `npm run worker`), minus the demo shop, plus the span hook. With
 * INGEST_SPANS=1 it times database, Redis and transaction spans of each request (span-hook.ts)
 * and answers the bench over IPC; production code carries none of it.
 */
const spans = process.env.INGEST_SPANS === '1' ? installSpanHook() : null;
const { services, close } = await boot({ role: 'api' }).catch(exitWith);
const server = await createHttpServer(services);
spans?.attach(server, services);
server.listen(services.config.PORT, services.config.HOST, () => services.logger.info('ingest API listening'));
onShutdown(async () => {
  server.close();
  server.closeAllConnections();
  await close();
}, services.logger);
