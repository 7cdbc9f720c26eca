import type { FastifyInstance, FastifyReply } from 'fastify';
import { signingKeys } from '../auth/signing-keys.ts';
import { UNSUBSCRIBE_PATH } from '../email/email-links.ts';
import { unsubscribe } from '../email/unsubscribe.ts';
import { verifyUnsubscribeToken } from '../email/unsubscribe-token.ts';
import type { Services } from '../services.ts';

/** The page's policy: no script, no request of its own, not framed, and the token never sent on as a referrer. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const WORDS = {
  ask: ['Stop these emails?', 'Heed will send no more emails of this kind to this address.'],
  visitor: ['You are unsubscribed', 'You will get no more emails about your conversations. Replies still show in the chat on the site.'],
  operator: ['Email alerts are off', 'Heed will email you no more alerts. Turn them back on in the console, under your profile.'],
  gone: ['You are unsubscribed', 'There is nothing left to email you about.'],
  invalid: ['This link does not work', 'The unsubscribe link is incomplete or was changed. Use the link exactly as it is in the email.'],
} as const;

/**
 * `GET /email/unsubscribe?t=<token>` (the link in every email) answers a small page asking to
 * confirm, with a button that posts to the same URL; `POST` (that button, or a mail client's
 * one-click unsubscribing, RFC 8058; its body is not read) stops the emails the signed token
 * names (email/unsubscribe.ts) and answers a page that says so. Only a POST changes anything:
 * mail gateways open every link in a message to scan it, and must not unsubscribe its reader.
 * A forged or altered token is a 400 page that changes nothing. The API's security headers,
 * plus a policy that allows the page nothing but its own inline style and its one form.
 * @example await app.register(emailUnsubscribe(services));
 */
export function emailUnsubscribe(s: Pick<Services, 'db' | 'config'>): (app: FastifyInstance) => Promise<void> {
  const keys = signingKeys(s.config);
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    app.route({
      method: ['GET', 'POST'],
      url: UNSUBSCRIBE_PATH,
      handler: async (request, reply) => {
        const t = (request.query as { t?: unknown }).t;
        const who = verifyUnsubscribeToken(keys, typeof t === 'string' ? t : null);
        if (!who) return page(reply, 400, WORDS.invalid);
        if (request.method === 'GET') return page(reply, 200, WORDS.ask, CONFIRM_FORM);
        return page(reply, 200, WORDS[(await unsubscribe(s.db, who)) ?? 'gone']);
      },
    });
  };
}

/** Posts to the page's own address (its token included): no `action`, so nothing to escape. */
const CONFIRM_FORM = '<form method="post"><button type="submit">Unsubscribe</button></form>';

function page(reply: FastifyReply, status: number, [title, text]: readonly [string, string], after = '') {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}</style>` +
        `</head><body><main><h1>${title}</h1><p>${text}</p>${after}</main></body></html>`,
    );
}
