import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { checkStoreKey, isStoreKey, type FileStore } from './file-store.ts';
import type { S3Settings } from './s3-settings.ts';

/** Keys one DeleteObjects request may name (S3's own limit). */
const DELETE_PAGE = 1_000;

/**
 * Attachment bytes in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph …): path-style
 * addressing unless `virtualHosted`, since most servers other than AWS need it. Checksums are
 * sent and checked only where the operation requires them: the SDK's newer default (a CRC
 * trailer on every upload) is refused by several S3 look-alikes. A put is durable once the
 * server acknowledged it. Nothing here logs; the summary names the bucket and host only.
 * @example const files = s3Store(settings); await files.put(newStoreKey(), bytes, 'image/webp');
 */
export function s3Store(settings: S3Settings): FileStore & { probe(): Promise<void> } {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: !settings.virtualHosted,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // a server that stops answering fails the request rather than holding an upload forever
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const Bucket = settings.bucket;
  return {
    mode: 's3',
    summary: `files: S3 bucket ${settings.bucket} at ${new URL(settings.endpoint).host}`,

    /** The bucket answers to these keys now (HeadBucket): a wrong address, bucket or key stops the start, not the first upload. */
    async probe() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const why =
          status === 404 ? 'no such bucket' : status === 403 ? 'the keys are refused' : status ? `status ${status}` : (err as Error).name;
        throw new Error(`the S3 bucket ${settings.bucket} at ${new URL(settings.endpoint).host} does not answer (${why})`);
      }
    },

    async put(key, bytes, mime) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: checkStoreKey(key), Body: bytes, ContentType: mime, ContentLength: bytes.length }),
      );
    },

    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: checkStoreKey(key) }));
        if (!object.Body) return null;
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async delete(keys) {
      keys.forEach(checkStoreKey);
      for (let i = 0; i < keys.length; i += DELETE_PAGE) {
        const page = keys.slice(i, i + DELETE_PAGE);
        const done = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } }),
        );
        // a missing key is a success in S3; anything listed here failed (access, a server's fault)
        const failed = (done.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0) throw new Error(`the S3 bucket kept ${failed.length} file(s) it was asked to delete (${failed[0]?.Code})`);
      }
    },

    async *keys() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key && isStoreKey(object.Key)) yield object.Key;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async close() {
      client.destroy();
    },
  };
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket');
}
