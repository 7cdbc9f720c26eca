import { connect, createServer, type Socket } from 'node:net';

export interface SeverableProxy {
  port: number;
  /** ends every connection and refuses new ones, as a store that went down would */
  sever(): Promise<void>;
  /** accepts connections again, on the same port */
  restore(): Promise<void>;
  /**
   * passes no byte either way, on open connections and new ones, which stay open: a store that
   * is frozen (SIGSTOP) or cut off by a network that drops packets, where nothing fails, it hangs
   */
  freeze(): void;
  /** passes bytes again; what was held back goes on */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 to a real server that can go away and come back, or freeze: a
 * test's own outage of a store, without touching the store the other tests share.
 */
/** A client's connection and the one it opened to the server. */
type Pair = { client: Socket; upstream: Socket };

export async function severableProxy(target: { host: string; port: number }): Promise<SeverableProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  let frozen = false;
  const track = (socket: Socket) => (
    sockets.add(socket), socket.on('close', () => sockets.delete(socket)).on('error', () => socket.destroy())
  );
  const flow = ({ client, upstream }: Pair) => client.pipe(upstream).pipe(client);
  const hold = ({ client, upstream }: Pair) => {
    client.unpipe(upstream).pause();
    upstream.unpipe(client).pause();
  };
  const server = createServer((client) => {
    const pair: Pair = { client: track(client), upstream: track(connect(target.port, target.host)) };
    pairs.add(pair);
    if (frozen) hold(pair);
    else flow(pair);
    client.on('close', () => (pair.upstream.destroy(), pairs.delete(pair)));
    pair.upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(port, '127.0.0.1', () => (server.off('error', reject), resolve())),
    );
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const sever = async () => {
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    sever,
    restore: () => listen(port),
    freeze: () => {
      frozen = true;
      for (const pair of pairs) hold(pair);
    },
    thaw: () => {
      frozen = false;
      for (const pair of pairs) flow(pair);
    },
    close: sever,
  };
}
