import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newStoreKey } from '../../api/src/attachments/store/file-store.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';

/** The embedded mode's folder: what a crash leaves behind, and what the folder holds, beyond the shared contract. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heed-folder-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every file under `root`, hidden ones included, as paths relative to it. */
async function everyFile(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

test('a store whose folder does not exist yet holds no keys, and makes the folder for its first file', async () => {
  const root = join(dir, 'not-yet', 'files');
  const files = folderStore(root);
  const keys: string[] = [];
  for await (const key of files.keys()) keys.push(key);
  expect(keys).toEqual([]);
  const key = newStoreKey();
  await files.put(key, Buffer.from('first'), 'text/plain');
  expect(await everyFile(root)).toEqual([key]);
});

test('each file lies at its key under the folder, readable by the owner alone, with no temp file left', async () => {
  const root = join(dir, 'layout');
  const files = folderStore(root);
  const keys = Array.from({ length: 3 }, newStoreKey);
  // puts of one key at once: one of them wins whole
  await Promise.all([...keys, keys[0]!, keys[0]!].map((key, i) => files.put(key, Buffer.from(`bytes ${i}`.repeat(1000)), 'text/plain')));
  expect((await everyFile(root)).sort()).toEqual([...keys].sort());
  expect((await files.get(keys[0]!))?.toString()).toMatch(/^(bytes [034])+$/);
  expect((await stat(join(root, keys[1]!))).mode & 0o777).toBe(0o600);
});

test("a crashed put's half-written temp file is neither listed nor read as a file", async () => {
  const root = join(dir, 'crashed');
  const files = folderStore(root);
  const key = newStoreKey();
  const [a, b, name] = key.split('/') as [string, string, string];
  await mkdir(join(root, a, b), { recursive: true });
  await writeFile(join(root, a, b, `.${name}.tmp`), 'half');
  const keys: string[] = [];
  for await (const k of files.keys()) keys.push(k);
  expect(keys).toEqual([]);
  expect(await files.get(key)).toBeNull();
  await files.put(key, Buffer.from('whole'), 'text/plain');
  expect((await files.get(key))?.toString()).toBe('whole');
});
