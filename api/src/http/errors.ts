import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal, type RefusalKind, retryAfterSeconds } from '../errors/refusal.ts';
import type { Logger } from '../logging/logger.ts';

const text = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/plain; charset=utf-8').send(body);

/**
 * The HTTP status of each kind of refusal on the plain routes: the one tRPC answers for the same
 * refusal (trpc/refusal.ts maps kinds to tRPC's codes; api/src/trpc/refusal.test.ts checks both agree).
 */
export const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
};

/**
 * What an unknown path answers: 404, plain text. Also a request target Fastify cannot route
 * (a broken `%` escape such as `/widget.js%`): it names no file either, and the static
 * routes answer those 404 too.
 */
export function notFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return text(reply, 404, 'Not found');
}

/**
 * The plain routes' one answer to a domain refusal (errors/refusal.ts) thrown by a handler: the
 * kind's status, `Retry-After` when it says when to try again, and a JSON body in the shape the
 * JSON routes answer (`{ error: reason, message, retryAfterMs? }`; the kind where it has no
 * reason). tRPC's routes answer refusals themselves (trpc/refusal.ts), in tRPC's envelope.
 */
function answerRefusal(refusal: Refusal, reply: FastifyReply): FastifyReply {
  const { retryAfterMs } = refusal;
  if (retryAfterMs !== undefined) reply.header('retry-after', String(retryAfterSeconds(retryAfterMs)));
  const body = { error: refusal.reason ?? refusal.kind, message: refusal.message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  return reply
    .code(REFUSAL_STATUS[refusal.kind])
    .headers({ 'content-type': 'application/json', 'cache-control': 'no-store' })
    .send(JSON.stringify(body));
}

/**
 * A domain refusal gets its status (above); Fastify's own refusals (a body it will not parse,
 * a content type no route takes) keep their 4xx status with a short plain-text reason; anything
 * else is a 500 that says nothing of its cause, logged with the request id the client was
 * answered, never with the request.
 *
 * @example app.setErrorHandler(errorHandler(services.logger));
 */
export function errorHandler(logger: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if ((error as unknown) instanceof Refusal) return answerRefusal(error as unknown as Refusal, reply);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return text(reply, status, error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Request body too large' : 'Bad request');
    logger.child({ requestId: request.id }).error({ err: error }, 'http request failed');
    return text(reply, 500, 'Internal error');
  };
}
