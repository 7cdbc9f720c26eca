import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { checkStoreKey, isStoreKey, type FileStore } from './file-store.ts';

/** Files removed at once by one `delete`: a site's thousands of files do not open thousands of handles together. */
const DELETE_CONCURRENCY = 16;

/**
 * Attachment bytes as files under `root` (the embedded mode: `HEED_DATA_DIR/files`), one file
 * per key (`ab/cd/<uuid>`), folders made on demand. A put writes a hidden temp file beside the
 * target, fsyncs it, renames it over the target and fsyncs the folder: a crash leaves the old
 * file or the new one, never half of one, and a put that resolved survives a power cut.
 * @example const files = folderStore('.heed/data/files'); await files.put(newStoreKey(), bytes, 'image/png');
 */
export function folderStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, ...checkStoreKey(key).split('/'));
  return {
    mode: 'folder',
    summary: `files: folder ${root}`,

    async put(key, bytes) {
      const path = pathOf(key);
      const folder = dirname(path);
      const made = await mkdir(folder, { recursive: true, mode: 0o700 });
      // temp names start with a dot: never a key, so keys() passes over a crashed put's leftover
      const temp = join(folder, `.${randomUUID()}.tmp`);
      try {
        const handle = await open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, path);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      // the rename, and any folder just made, are durable only once their parent folders are synced
      await syncFolder(folder);
      if (made) {
        const stop = dirname(resolve(made));
        for (let dir = folder; dir !== stop && dir !== dirname(dir); dir = dirname(dir)) await syncFolder(dirname(dir));
      }
    },

    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(keys) {
      const paths = keys.map(pathOf);
      for (let i = 0; i < paths.length; i += DELETE_CONCURRENCY) {
        await Promise.all(paths.slice(i, i + DELETE_CONCURRENCY).map((path) => rm(path, { force: true })));
      }
    },

    async *keys() {
      for await (const path of walk(base)) {
        const key = relative(base, path).split(sep).join('/');
        if (isStoreKey(key)) yield key;
      }
    },

    async close() {},
  };
}

/** Every file under `dir`, depth first; a missing folder holds none. Hidden entries (temp files) are skipped. */
async function* walk(dir: string): AsyncGenerator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** fsync on a folder makes its entries durable; platforms that refuse it (Windows) have no such need. */
async function syncFolder(dir: string): Promise<void> {
  let handle: import('node:fs/promises').FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err;
  } finally {
    await handle?.close();
  }
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as { code?: string }).code ?? '');
