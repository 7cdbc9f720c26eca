import { RefusedError, type HeedApi, type UploadRefusal } from '../state/heed-api.ts';
import type { AttachmentSettings, AttachmentView } from '../state/types.ts';
import { checkFile } from './file-checks.ts';
import type { UploadRefusalCode } from '../../../api/src/shared/attachment-kinds.ts';
import type { Refusal } from './refusal.ts';

/**
 * `uploading` (progress in `sent`), `waiting` (the server asked to wait: tried again by itself),
 * `done` (its `view` goes with the next send), `refused` (why in `refusal`: never uploads) or
 * `failed` (broke off on the way: can be tried again).
 */
export type UploadState = 'uploading' | 'waiting' | 'done' | 'refused' | 'failed';

/** One attached file on its way to a conversation, until a send takes it or the visitor removes it. */
export interface Upload {
  readonly key: number;
  readonly conversationId: string;
  readonly file: File;
  state: UploadState;
  /** bytes sent so far */
  sent: number;
  view?: AttachmentView;
  refusal?: Refusal;
  abort?: AbortController;
  retry?: ReturnType<typeof setTimeout>;
}

/** What the queue tells the visitor about a file: it is uploaded, refused, failed, or waits `seconds` to be tried again. */
export type UploadNews = { upload: Upload; news: 'ready' | 'refused' | 'failed' } | { upload: Upload; news: 'waiting'; seconds: number };

/** A 429 that named no time waits this long. */
const DEFAULT_RETRY_MS = 5_000;
/** Codes the server words a refusal by (the rest are failures that a new try may mend). */
const REFUSALS = new Set<string>([
  'file_too_large',
  'message_files_too_large',
  'file_type_refused',
  'file_damaged',
  'file_empty',
  'attachments_off',
] satisfies UploadRefusalCode[]);

const busy = (u: Upload) => u.state === 'uploading' || u.state === 'waiting';

let keys = 0;

/**
 * The files attached in the composer, per conversation: each is checked against the site's
 * settings, then uploads at once (`api.upload`), several side by side; a 429 waits for its
 * `Retry-After` and tries again by itself. Removing a file aborts its upload. A send waits for the
 * uploads running (`settle`) and takes the finished ones (`take`). Nothing here is kept across a
 * reload: an upload in flight then is lost, and only sends already made keep their files (the outbox).
 *
 * @example const queue = new UploadQueue(api, render, announce); queue.add(conversationId, files, site.attachments);
 */
export class UploadQueue {
  private uploads: Upload[] = [];
  /** sends waiting for uploads to end: each returns true once it is done */
  private readonly waits = new Set<() => boolean>();

  constructor(
    private readonly api: HeedApi,
    /** after every change (progress included) */
    private readonly changed: () => void,
    private readonly tell: (news: UploadNews) => void,
  ) {}

  /** A conversation's files, in the order attached. */
  of(conversationId: string | null): Upload[] {
    return this.uploads.filter((u) => u.conversationId === conversationId);
  }

  /** Whether a conversation's files are still on their way. */
  busy(conversationId: string | null): boolean {
    return this.of(conversationId).some(busy);
  }

  /** Checks each file and starts its upload; a file the checks refuse stays, saying why. */
  add(conversationId: string, files: readonly File[], settings: AttachmentSettings): void {
    for (const file of files) {
      const going = this.of(conversationId).filter((u) => u.state !== 'refused');
      const refusal = checkFile(file, settings, { count: going.length, bytes: going.reduce((sum, u) => sum + u.file.size, 0) });
      const upload: Upload = {
        key: ++keys,
        conversationId,
        file,
        state: refusal ? 'refused' : 'uploading',
        sent: 0,
        refusal: refusal ?? undefined,
      };
      this.uploads.push(upload);
      if (refusal) this.tell({ upload, news: 'refused' });
      else void this.start(upload);
    }
    this.update();
  }

  /** Takes a file away, aborting its upload (or its wait to be tried again). */
  remove(upload: Upload): void {
    upload.abort?.abort();
    clearTimeout(upload.retry);
    this.uploads = this.uploads.filter((u) => u !== upload);
    this.update();
  }

  /** Uploads a file that failed on the way once more. */
  retry(upload: Upload): void {
    if (upload.state === 'failed') void this.start(upload);
  }

  /**
   * Resolves once none of a conversation's files is on its way: with the uploaded ones, or null
   * when one that was on its way ended refused or failed (the visitor reads why before sending).
   */
  settle(conversationId: string): Promise<AttachmentView[] | null> {
    const watched = this.of(conversationId).filter(busy);
    return new Promise((resolve) => {
      const check = () => {
        if (this.busy(conversationId)) return false;
        const setback = watched.some((u) => u.state !== 'done' && this.uploads.includes(u));
        resolve(setback ? null : this.views(conversationId));
        return true;
      };
      if (!check()) this.waits.add(check);
    });
  }

  /** The uploaded files of a conversation, for its send. */
  views(conversationId: string): AttachmentView[] {
    return this.of(conversationId).flatMap((u) => (u.state === 'done' && u.view ? [u.view] : []));
  }

  /** A send took the conversation's files: the uploaded and the refused go; a failed one stays to be tried again. */
  take(conversationId: string): void {
    this.uploads = this.uploads.filter((u) => u.conversationId !== conversationId || u.state === 'failed' || busy(u));
    this.update();
  }

  private async start(upload: Upload): Promise<void> {
    const abort = new AbortController();
    Object.assign(upload, { state: 'uploading', sent: 0, abort, refusal: undefined });
    this.update();
    try {
      upload.view = await this.api.upload({
        conversationId: upload.conversationId,
        name: upload.file.name,
        file: upload.file,
        signal: abort.signal,
        onProgress: (sent) => {
          upload.sent = sent;
          this.changed();
        },
      });
      upload.state = 'done';
      this.tell({ upload, news: 'ready' });
    } catch (err) {
      if (abort.signal.aborted) return; // removed: nothing to say
      const refused = err instanceof RefusedError ? (err as UploadRefusal) : null;
      if (refused?.reason === 'rate_limited') {
        const ms = refused.retryAfterMs ?? DEFAULT_RETRY_MS;
        upload.state = 'waiting';
        upload.retry = setTimeout(() => void this.start(upload), ms);
        this.tell({ upload, news: 'waiting', seconds: Math.ceil(ms / 1000) });
      } else if (refused && REFUSALS.has(refused.reason)) {
        upload.state = 'refused';
        const { limitBytes } = refused;
        // the server names what it found ("SVG", "ZIP"), or says it could not tell
        const detected = refused.detected && refused.detected.toLowerCase() !== 'unknown' ? refused.detected : undefined;
        const image = upload.file.type.startsWith('image/') || detected === 'SVG';
        upload.refusal = { code: refused.reason as Refusal['code'], size: upload.file.size, limitBytes, detected, image };
        this.tell({ upload, news: 'refused' });
      } else {
        upload.state = 'failed';
        upload.refusal = { code: 'failed' };
        this.tell({ upload, news: 'failed' });
      }
    }
    this.update();
  }

  /** Re-renders and lets the sends that waited for these uploads go. */
  private update(): void {
    this.changed();
    for (const check of this.waits) if (check()) this.waits.delete(check);
  }
}
