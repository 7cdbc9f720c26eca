/**
 * Field names whose value is replaced by `[redacted]` wherever a log line carries them: what
 * a visitor wrote or the model said (`content`, `text`, `prompt`, a title, which may quote the
 * first message), credentials (`token`, `ticket`, `password`, `secret`, `apiKey`) and the
 * headers that carry them, and what names a person: a client's address (`ip`, `remoteAddress`,
 * `X-Forwarded-For`…) and an email address. Known names only: the other half of the rule is
 * that code never passes such values to a logger (test/api/log-hygiene.test.ts greps a whole
 * journey for them).
 */
const SENSITIVE = [
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'visitorToken',
  'identityToken',
  'ticket',
  'password',
  'secret',
  'apiKey',
  'content',
  'text',
  'prompt',
  'messages',
  'reply',
  'delta',
  'title',
  'ip',
  'clientIp',
  'remoteAddress',
  'email',
  'contactEmail',
];

/** Request headers that carry a client's address (a proxy's) or a credential. */
const SENSITIVE_HEADERS = ['authorization', 'cookie', 'x-api-key', 'x-forwarded-for', 'x-real-ip', 'forwarded'];

/**
 * pino `redact` paths: each name at the top level and one level down (`*.token`), plus request
 * headers wherever a line carries them (`req.headers`, `headers`, `*.headers`) and the
 * response's cookies.
 * @example pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } })
 */
export const REDACT_PATHS: string[] = [
  ...SENSITIVE.map((name) => quote(name)),
  ...SENSITIVE.map((name) => `*.${quote(name)}`),
  ...SENSITIVE_HEADERS.flatMap((h) => ['req.headers', 'headers', '*.headers'].map((at) => `${at}${member(h)}`)),
  'res.headers["set-cookie"]',
];

/** A path segment as fast-redact accepts it: bracketed when it is not an identifier. */
function quote(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
}

/** A member access as fast-redact accepts it: `.name`, or `["x-name"]` when it is not an identifier. */
function member(name: string): string {
  const segment = quote(name);
  return segment.startsWith('[') ? segment : `.${segment}`;
}
