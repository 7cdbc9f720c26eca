import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { runTitlePass } from '../titles/title-pass.ts';
import { titleSettings } from '../titles/title-settings.ts';
import { bearerMatches } from './bearer.ts';

export const CRON_TITLES_PATH = '/api/cron/titles';

/**
 * `POST /api/cron/titles` with `Authorization: Bearer $CRON_SECRET`: runs one title pass
 * (the same function as the in-process timer) and answers its counts, e.g.
 * `{ recovered: 0, claimed: 2, outcomes: { changed: 1, kept: 1, failed: 0, rejected: 0, skipped: 0 } }`.
 * Without CRON_SECRET configured every request is refused: there is no open default.
 *
 * @example await app.register(cronTitles(services));
 */
export function cronTitles(s: Services): (app: FastifyInstance) => Promise<void> {
  const settings = titleSettings(s.config);
  return async (app) => {
    // whatever body a caller sends is not read: the pass takes no input
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    app.all(CRON_TITLES_PATH, async (request, reply) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        reply
          .code(status)
          .headers({ 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
          .send(JSON.stringify(body));
      if (!bearerMatches(request.headers.authorization, s.config.CRON_SECRET))
        return send(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
      if (request.method !== 'POST') return send(405, { error: 'method not allowed' }, { allow: 'POST' });
      return send(200, await runTitlePass(s, settings));
    });
  };
}
