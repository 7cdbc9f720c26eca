import { boot, onShutdown } from './boot.ts';
import { createReplyWorker } from './chat/start-worker.ts';

/** `npm run worker`: a reply worker alone; run as many as you like against one Postgres + Redis. */
const { services, close } = await boot({ role: 'worker' });
const worker = createReplyWorker(services);
await worker.start();
console.log(`[heed] worker ${worker.id} started`);

onShutdown(async () => {
  await worker.stop();
  await close();
});
