/**
 * Runs the local OpenAI-compatible model server on its own, e.g. for `npm run bench` or the demo:
 * `tsx api/src/model-server/main.ts --port 4010 [--host 127.0.0.1]`. Prints the base URL (with `/v1`)
 * as the first line of stdout, so scripts can read it; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { startModelServer } from './server.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4010' }, host: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`model-server: --port must be 0..65535, got "${values.port}"`);
  process.exit(2);
}

// nothing reads what it was sent: a long-running server must not keep every prompt
const server = await startModelServer({ port, host: values.host, record: false });
console.log(server.url);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
