import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { FileStore } from './file-store.ts';
import { folderStore } from './folder-store.ts';
import { postgresStore } from './postgres-store.ts';
import { s3SettingsOf, type S3Config } from './s3-settings.ts';
import { s3Store } from './s3-store.ts';

/**
 * The file store of this process: an S3-compatible bucket when one is configured (S3_URL, or
 * S3_ENDPOINT with S3_BUCKET and the keys), which must answer now; else, in the embedded mode,
 * the folder `HEED_DATA_DIR/files` beside the embedded database; else PostgreSQL (`FileBlob`),
 * so a deployment with a database server needs nothing more. Half an S3 configuration throws
 * with what to set (boot prints it as the reason the start stopped).
 * @example const files = await openFileStore(config, { embeddedDatabase: stores.embeddedDatabase, db });
 * logger.info(files.summary);
 */
export async function openFileStore(
  config: S3Config & Pick<Config, 'HEED_DATA_DIR'>,
  opts: { embeddedDatabase: boolean; db: Db },
): Promise<FileStore> {
  const s3 = s3SettingsOf(config);
  if (s3) {
    const store = s3Store(s3);
    try {
      await store.probe();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  if (opts.embeddedDatabase) return folderStore(join(config.HEED_DATA_DIR, 'files'));
  return postgresStore(opts.db);
}
