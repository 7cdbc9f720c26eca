import { randomUUID } from 'node:crypto';

/** Where attachment bytes live: a folder (the embedded mode), an S3-compatible bucket, or PostgreSQL's `FileBlob`. */
export type FileStoreMode = 'folder' | 's3' | 'postgres';

/**
 * The bytes of attached files, by key. The rows (`Attachment`) say what a file is; a store only
 * keeps bytes, so the three modes behave the same to everything above them
 * (test/attachments/store-contract.test.ts runs one contract against all three).
 * @example const key = newStoreKey(); await files.put(key, bytes, 'image/png'); await files.get(key);
 */
export interface FileStore {
  readonly mode: FileStoreMode;
  /** for the start-up line, never a secret: "files: folder .heed/data/files", "files: S3 bucket b at host", "files: PostgreSQL" */
  readonly summary: string;
  /** stores the bytes under `key` (replacing any there); durable once it resolves */
  put(key: string, bytes: Buffer, mime: string): Promise<void>;
  /** the bytes under `key`, or null when there are none */
  get(key: string): Promise<Buffer | null>;
  /** removes the keys; keys with nothing stored are fine, so a repeated delete is harmless */
  delete(keys: readonly string[]): Promise<void>;
  /** every stored key, in no particular order (export, orphan checks) */
  keys(): AsyncIterable<string>;
  close(): Promise<void>;
}

/** Longest key any store accepts: the `Attachment.storeKey` and `FileBlob.key` columns are VARCHAR(200). */
export const STORE_KEY_MAX = 200;

/**
 * Segments of letters, digits, `.`, `_` and `-` joined by `/`, each starting with a letter or a
 * digit: no `..`, no `.` alone, no leading slash, no backslash, nothing a path or a URL reads
 * differently from the key.
 */
const KEY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/**
 * A new random key, fanned out over two folder levels (`ab/cd/<uuid>`) so no folder of the
 * folder store, and no prefix of a bucket, holds more than a few hundred files.
 * @example newStoreKey() // '3f/a9/3fa9c2d4-…'
 */
export function newStoreKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

/**
 * True for a key every store accepts (see KEY_SHAPE).
 * @example isStoreKey('ab/cd/3fa9c2d4-…') // true; isStoreKey('../x') // false
 */
export function isStoreKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= STORE_KEY_MAX && KEY_SHAPE.test(key);
}

/**
 * Throws unless `key` is a store key: every store calls this before it touches a key, so a key
 * from a row or an import can never name a path outside the store.
 * @example checkStoreKey('ab/cd/3fa9…'); // fine
 * checkStoreKey('../etc/passwd'); // throws
 */
export function checkStoreKey(key: string): string {
  if (!isStoreKey(key)) throw new Error(`not a file store key: ${JSON.stringify(String(key).slice(0, 60))}`);
  return key;
}
