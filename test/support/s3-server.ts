import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of s3rver (it ships no types) these tests drive. */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (opts: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;

/** An S3-API server of this process, its bucket ready, and the settings that reach it. */
export interface TestS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** s3rver takes any signature made with this pair */
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_URL for this server, the key and secret percent-encoded */
  url: string;
  /** the settings as the environment would give them */
  env: { S3_ENDPOINT: string; S3_BUCKET: string; S3_ACCESS_KEY_ID: string; S3_SECRET_ACCESS_KEY: string };
  close(): Promise<void>;
}

/**
 * A real S3-API server (s3rver) in this process on a port of 127.0.0.1 the OS picks, keeping
 * its objects in a temp folder removed on close, with `bucket` made.
 * @example const s3 = await startTestS3(); … await s3.close();
 */
export async function startTestS3(bucket = 'heed-test'): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), 'heed-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const [accessKeyId, secretAccessKey] = ['S3RVER', 'S3RVER'];
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    url: `http://${encodeURIComponent(accessKeyId)}:${encodeURIComponent(secretAccessKey)}@127.0.0.1:${port}/${bucket}`,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
