import { connect, createServer, type Socket } from 'node:net';

export interface SeverableProxy {
  port: number;
  /** ends every connection and refuses new ones, as a store that went down would */
  sever(): Promise<void>;
  /** accepts connections again, on the same port */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to a real server that can go away and come back: a test's own
 * outage of a store, without touching the store the other tests share.
 */
export async function severableProxy(target: { host: string; port: number }): Promise<SeverableProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket)).on('error', () => socket.destroy()));
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client).pipe(track(upstream)).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => (server.off('error', reject), resolve())));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const sever = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, sever, restore: () => listen(port), close: sever };
}
