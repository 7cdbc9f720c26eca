/**
 * Field names whose value is replaced by `[redacted]` wherever a log line carries them: what
 * a visitor wrote or the model said (`content`, `text`, `prompt`, a title, which may quote the
 * first message), credentials (`token`, `ticket`, `password`, `secret`, `apiKey`) and the
 * headers that carry them. Known names only: the other half of the rule is that code never
 * passes such values to a logger (test/api/log-hygiene.test.ts greps a whole journey for them).
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
];

/**
 * pino `redact` paths: each name at the top level and one level down (`*.token`), plus request
 * and response headers where an HTTP framework's serializer puts them.
 * @example pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } })
 */
export const REDACT_PATHS: string[] = [
  ...SENSITIVE.map((name) => quote(name)),
  ...SENSITIVE.map((name) => `*.${quote(name)}`),
  ...['authorization', 'cookie', 'x-api-key'].map((h) => `req.headers.${quote(h)}`),
  'res.headers["set-cookie"]',
];

/** A path segment as fast-redact accepts it: bracketed when it is not an identifier. */
function quote(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
}
