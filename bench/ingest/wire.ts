import { Agent, request } from 'node:http';

/** Keep-alive sockets, one per visitor at most, as each visitor's browser keeps one to the API. */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** A refused or failed call, with tRPC's code and Heed's reason when the server gave them. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | null,
  ) {
    super(message);
  }
}

/**
 * One tRPC mutation exactly as the widget sends it (widget/src/state/trpc-wire.ts): `POST
 * {base}/{path}` with a JSON body, the visitor token as a bearer and the host page's origin,
 * no batching. Resolves with `result.data`. Plain node:http, so the load generator's own CPU
 * stays small beside the API's (it shares the machine).
 */
export function mutate<T>(url: string, path: string, input: unknown, token: string | null, origin: string): Promise<T> {
  const body = JSON.stringify(input ?? {});
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/trpc/${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          origin,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            const answer = JSON.parse(Buffer.concat(chunks).toString()) as {
              result?: { data: T };
              error?: { message: string; data?: { reason?: string | null } };
            };
            if (answer.error) return reject(new CallError(answer.error.message, res.statusCode ?? 0, answer.error.data?.reason ?? null));
            resolve(answer.result!.data);
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Ends the keep-alive sockets, so the bench process can finish. */
export const closeSockets = () => agent.destroy();
