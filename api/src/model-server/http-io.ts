import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './wire-format.ts';

/** Reads a whole request body as UTF-8; `undefined` when the client went away mid-body. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  try {
    for await (const part of req) parts.push(part as Buffer);
  } catch {
    return undefined;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Sends a JSON response unless the connection is already gone. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Sends an OpenAI-style error (`{ error: { message, type, code, param } }`). */
export function sendError(res: ServerResponse, status: number, message?: string, type?: string): void {
  sendJson(res, status, errorBody(status, message, type));
}

/** Writes and resolves once the bytes reached the socket, so a following destroy cannot drop them. */
export function writeFlushed(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    // A write cut short by a closing socket may never call back; the close settles it instead.
    const done = () => {
      res.off('close', done);
      resolve();
    };
    res.once('close', done);
    res.write(text, done);
  });
}
