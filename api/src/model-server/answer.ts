import type { ServerResponse } from 'node:http';
import { sleep, untilAborted } from './abortable.ts';
import { sendError, sendJson } from './http-io.ts';
import { planReply } from './plan-reply.ts';
import { streamReply } from './stream-reply.ts';
import type { RecordedRequest, ScriptedReply } from './types.ts';
import { completionBody } from './wire-format.ts';

/** The connection a reply is delivered on. */
export interface Exchange {
  res: ServerResponse;
  /** aborts when the client goes away (or the server closes) */
  signal: AbortSignal;
  /** destroys the connection on purpose */
  breakOff: () => void;
}

/**
 * Delivers one scripted reply for a recorded request: waits, hangs, fails, streams or answers with
 * JSON as the reply and the request's `stream` flag say. Resolves when the exchange is over.
 */
export async function answer(req: RecordedRequest, reply: ScriptedReply, { res, signal, breakOff }: Exchange): Promise<void> {
  await sleep(reply.delayMs ?? 0, signal);
  if (reply.until) await Promise.race([reply.until, untilAborted(signal)]);
  if (reply.hang) return untilAborted(signal);
  if (signal.aborted) return;
  const error = reply.error;
  if (error && error.afterChunks === undefined) return sendError(res, error.status, error.message, error.type);
  const plan = planReply(req, reply);
  if (req.body.stream === true) {
    const includeUsage = req.body.stream_options?.include_usage === true;
    return streamReply(res, plan, {
      includeUsage,
      chunkDelayMs: reply.chunkDelayMs ?? 0,
      breakAfter: error?.afterChunks,
      breakOff,
      signal,
    });
  }
  // A JSON answer has no chunks to break between: a scripted break just drops the connection.
  if (error) return breakOff();
  sendJson(res, 200, completionBody(plan));
}
