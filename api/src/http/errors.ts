import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logging/logger.ts';

const text = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/plain; charset=utf-8').send(body);

/**
 * What an unknown path answers: 404, plain text. Also a request target Fastify cannot route
 * (a broken `%` escape such as `/widget.js%`): it names no file either, and the static
 * routes answer those 404 too.
 */
export function notFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return text(reply, 404, 'Not found');
}

/**
 * Fastify's own refusals (a body it will not parse, a content type no route takes) keep
 * their 4xx status with a short plain-text reason; anything else is a 500 that says nothing
 * of its cause, logged with the request id the client was answered, never with the request.
 *
 * @example app.setErrorHandler(errorHandler(services.logger));
 */
export function errorHandler(logger: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return text(reply, status, error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Request body too large' : 'Bad request');
    logger.child({ requestId: request.id }).error({ err: error }, 'http request failed');
    return text(reply, 500, 'Internal error');
  };
}
