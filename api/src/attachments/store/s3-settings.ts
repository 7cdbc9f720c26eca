import { z } from 'zod';
import type { Config } from '../../config.ts';

/** What the S3 store needs, from S3_URL or from the S3_* settings. */
export interface S3Settings {
  /** scheme, host and port: `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000` */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket.host` addressing; otherwise `host/bucket` (path-style) */
  virtualHosted: boolean;
}

/** The settings of config.ts the S3 store is made from. */
export type S3Config = Pick<
  Config,
  'S3_URL' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_VIRTUAL_HOSTED'
>;

/** The separate settings S3_URL stands for: setting both is refused rather than one quietly winning. */
const SEPARATE = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** Bucket names as S3 and its look-alikes take them (3–63 characters; dots for the old style, underscores for MinIO's). */
const bucket = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/, 'the bucket must be 3–63 letters, digits, dots or dashes');

/**
 * S3_URL taken apart: `https://KEY_ID:SECRET@host[:port]/bucket?region=eu-west-1`, the key id,
 * secret and bucket percent-decoded (a secret holding `/` or `+` is written `%2F`, `%2B`). The
 * issues never quote the value: it holds the secret.
 */
const s3Url = z
  .string()
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a URL' });
      return z.NEVER;
    }
    const decoded = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return null;
      }
    };
    return {
      protocol: url.protocol,
      endpoint: `${url.protocol}//${url.host}`,
      accessKeyId: decoded(url.username),
      secretAccessKey: decoded(url.password),
      path: decoded(url.pathname.replace(/^\/+|\/+$/g, '')),
      region: url.searchParams.get('region'),
    };
  })
  .pipe(
    z.object({
      protocol: z.enum(['https:', 'http:'], { error: 'must start with https:// (or http:// for a server on this network)' }),
      endpoint: z.string(),
      accessKeyId: z.string({ error: 'the key id is not percent-encoded right' }).min(1, 'the key id is missing (KEY_ID:SECRET@host)'),
      secretAccessKey: z.string({ error: 'the secret is not percent-encoded right' }).min(1, 'the secret is missing (KEY_ID:SECRET@host)'),
      path: z
        .string({ message: 'the bucket is not percent-encoded right' })
        .min(1, 'the bucket is missing (host/bucket)')
        .refine((p) => !p.includes('/'), 'the path must be the bucket alone (host/bucket)')
        .pipe(bucket),
      region: z.string().min(1).max(64).nullable(),
    }),
  );

/**
 * The bucket Heed keeps attachments in, or null when none is configured: S3_URL, or S3_ENDPOINT
 * with S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (S3_REGION, S3_VIRTUAL_HOSTED for
 * either). Half a configuration (an endpoint without its bucket or keys, S3_URL beside the
 * separate settings, a malformed S3_URL) throws with what to set; no message holds a secret.
 * @example s3SettingsOf(config) // { endpoint: 'https://s3.example.net', bucket: 'heed', region: 'us-east-1', … }
 */
export function s3SettingsOf(config: S3Config): S3Settings | null {
  const separate = SEPARATE.filter((name) => config[name] !== undefined);
  if (config.S3_URL !== undefined) {
    if (separate.length > 0) throw new Error(`set S3_URL or the separate S3 settings, not both: unset ${separate.join(', ')}`);
    const parsed = s3Url.safeParse(config.S3_URL);
    if (!parsed.success) throw new Error(`S3_URL: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    const { endpoint, path, region, accessKeyId, secretAccessKey } = parsed.data;
    return {
      endpoint,
      bucket: path,
      region: region ?? config.S3_REGION,
      accessKeyId,
      secretAccessKey,
      virtualHosted: config.S3_VIRTUAL_HOSTED,
    };
  }
  if (separate.length === 0) return null;
  const missing = SEPARATE.filter((name) => config[name] === undefined);
  if (missing.length > 0) {
    throw new Error(`the S3 settings are incomplete: ${separate.join(', ')} set, ${missing.join(', ')} missing (or set S3_URL alone)`);
  }
  const parsedBucket = bucket.safeParse(config.S3_BUCKET);
  if (!parsedBucket.success) throw new Error(`S3_BUCKET: ${parsedBucket.error.issues[0]?.message}`);
  const endpoint = new URL(config.S3_ENDPOINT!);
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')
    throw new Error('S3_ENDPOINT: must start with https:// (or http://)');
  return {
    endpoint: endpoint.origin,
    bucket: parsedBucket.data,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    virtualHosted: config.S3_VIRTUAL_HOSTED,
  };
}
