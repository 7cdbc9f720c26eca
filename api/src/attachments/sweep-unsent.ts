import type { Db } from '../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import { startPassTimer, type PassTimer } from '../timers/pass-timer.ts';
import type { FileStore } from './store/file-store.ts';

/** An upload no send took within this is given up: the widget's composer does not keep a file for a day. */
const UNSENT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Rows one statement deletes: short row locks and bounded memory, however many piled up. */
const BATCH = 500;
/** How often a worker process sweeps; any number of processes may, each taking rows the others do not hold. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface SweepDeps {
  db: Db;
  files: FileStore;
  logger?: Logger;
}

/** What one sweep removed. */
export interface SweepResult {
  /** unsent Attachment rows deleted */
  attachments: number;
  /** of their files, those the store failed to delete (left as unused bytes; see deleteStoredFiles) */
  filesLeft: number;
}

/**
 * Deletes uploads that no send took (`messageId` null) older than `olderThanMs`, `batch` rows per
 * statement, then their bytes from the file store. Each statement takes only rows no other
 * transaction holds (`FOR UPDATE SKIP LOCKED`): two sweeps at once split the rows between them,
 * and a send taking an upload at that moment either gets it first (the sweep skips it) or finds
 * it gone (`attachment_unavailable`), never a message pointing at deleted bytes. The cutoff is
 * the database's clock, the one `createdAt` was written with. `signal` stops it between batches.
 * @example const { attachments } = await sweepUnsentAttachments({ db, files, logger });
 */
export async function sweepUnsentAttachments(
  deps: SweepDeps,
  opts: { olderThanMs?: number; batch?: number; signal?: AbortSignal } = {},
): Promise<SweepResult> {
  const { olderThanMs = UNSENT_MAX_AGE_MS, batch = BATCH, signal } = opts;
  const result: SweepResult = { attachments: 0, filesLeft: 0 };
  while (!signal?.aborted) {
    const rows = await deps.db.$queryRaw<{ storeKey: string }[]>`
      DELETE FROM "Attachment"
      WHERE id IN (
        SELECT id FROM "Attachment"
        WHERE "messageId" IS NULL AND "createdAt" < now() - ${olderThanMs / 1000}::float8 * interval '1 second'
        ORDER BY "createdAt" LIMIT ${batch}
        FOR UPDATE SKIP LOCKED
      ) AND "messageId" IS NULL
      RETURNING "storeKey"`;
    result.attachments += rows.length;
    if (
      rows.length > 0 &&
      !(await deleteStoredFiles(
        deps.files,
        rows.map((r) => r.storeKey),
        deps.logger,
      ))
    ) {
      result.filesLeft += rows.length;
    }
    if (rows.length < batch) break;
  }
  return result;
}

/**
 * Deletes files whose rows are already gone. A store that fails (a bucket away for a moment) is
 * logged and the caller carries on: the rows are what make a file reachable, so a file left
 * behind is unused bytes, never a file someone can still fetch. Answers whether the store took it.
 * @example await deleteStoredFiles(files, keys, logger);
 */
export async function deleteStoredFiles(files: FileStore, keys: readonly string[], logger?: Logger): Promise<boolean> {
  if (keys.length === 0) return true;
  try {
    await files.delete(keys);
    return true;
  } catch (err) {
    logger?.warn(
      { err, files: keys.length, store: files.mode },
      'attachment files not deleted from the file store; their rows are gone, so they are unused bytes',
    );
    return false;
  }
}

/**
 * The sweep in a worker process's background, every hour (the first an hour after start);
 * a sweep that removed something says how much.
 * @example const sweep = startUnsentSweep(services); … await sweep.stop();
 */
export function startUnsentSweep(deps: SweepDeps & { logger: Logger }, intervalMs = SWEEP_EVERY_MS): PassTimer {
  return startPassTimer(
    intervalMs,
    async (signal) => {
      const swept = await sweepUnsentAttachments(deps, { signal });
      if (swept.attachments > 0) deps.logger.info({ swept }, 'unsent attachments swept');
    },
    (err) => deps.logger.error({ err }, 'unsent attachment sweep failed'),
  );
}
