import type { UploadRefusalCode } from '../../../api/src/shared/attachment-kinds.ts';
import type { AttachmentView } from './contract.ts';

/** Why an upload did not land: the server's refusal codes, or none reached it (`network`). */
export type UploadFailure = UploadRefusalCode | 'rate_limited' | 'not_found' | 'network' | (string & {});

/** The server refused a file (or could not be reached): `code` says why, with its figures. */
export class UploadRefusal extends Error {
  constructor(
    readonly code: UploadFailure,
    /** the HTTP status; 0 when no answer came */
    readonly status: number,
    readonly extra: { limitBytes?: number; detected?: string; retryAfterS?: number } = {},
    message = code,
  ) {
    super(message);
    this.name = 'UploadRefusal';
  }
}

export interface UploadOptions {
  /** the share sent so far, 0 to 1 */
  onProgress?: (share: number) => void;
  /** aborting it rejects with an `AbortError` */
  signal?: AbortSignal;
}

/**
 * Sends one file's raw bytes to `POST <filesUrl>?conversationId=…&name=…` on the console's own
 * origin (the session cookie goes by itself) and answers the attachment, not yet sent: a reply
 * takes it by its id. XMLHttpRequest rather than fetch: only it reports the upload's progress.
 * A refusal rejects with `UploadRefusal` (the server's code, `limitBytes`, `detected`,
 * `Retry-After`).
 *
 * @example const view = await uploadFile('/files', conversationId, file, { onProgress: (s) => (bar.value = s) });
 */
export function uploadFile(filesUrl: string, conversationId: string, file: File, o: UploadOptions = {}): Promise<AttachmentView> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new DOMException('The upload was cancelled.', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${filesUrl}?conversationId=${encodeURIComponent(conversationId)}&name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) o.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = parsed(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body?.attachment) {
        o.onProgress?.(1);
        return resolve(body.attachment);
      }
      const error = body?.error;
      const retryAfter = Number(xhr.getResponseHeader('Retry-After'));
      reject(
        new UploadRefusal(
          error?.code ?? `http_${xhr.status}`,
          xhr.status,
          {
            ...(typeof error?.limitBytes === 'number' ? { limitBytes: error.limitBytes } : {}),
            ...(typeof error?.detected === 'string' ? { detected: error.detected } : {}),
            ...(retryAfter > 0 ? { retryAfterS: retryAfter } : {}),
          },
          error?.message ?? `The server answered ${xhr.status}.`,
        ),
      );
    };
    xhr.onerror = () => reject(new UploadRefusal('network', 0));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    o.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

interface UploadAnswer {
  attachment?: AttachmentView;
  error?: { code?: string; message?: string; limitBytes?: number; detected?: string };
}

/** The answer's JSON; null when it is none (a proxy's HTML error page). */
function parsed(text: string): UploadAnswer | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as UploadAnswer) : null;
  } catch {
    return null;
  }
}
