import { AuthError, OfflineError, RefusedError, type UploadInput, type UploadRefusal } from '../state/heed-api.ts';
import type { AttachmentView } from '../state/types.ts';

/** The code of a refusal whose body names none (a proxy's 413 page, say), by its status. */
const CODE_OF_STATUS: Record<number, string> = {
  403: 'attachments_off',
  413: 'file_too_large',
  415: 'file_type_refused',
  429: 'rate_limited',
};

/** The API's answer (http/file-routes.ts); a proxy's page in its place parses to `{}`. */
interface RefusalBody {
  error?: { code?: string; message?: string; limitBytes?: number; detected?: string; retryAfterMs?: number };
  attachment?: AttachmentView;
}

function parse(text: string): RefusalBody {
  try {
    return (JSON.parse(text) as RefusalBody) ?? {};
  } catch {
    return {};
  }
}

/** What a refused upload rejects with: its code (from the body, else the status) and what the visitor is told. */
function refusal(xhr: XMLHttpRequest, body: RefusalBody): Error {
  const detail = body.error ?? {};
  const code = detail.code ?? CODE_OF_STATUS[xhr.status] ?? 'upload_failed';
  const message = detail.message ?? `upload refused (${xhr.status})`;
  if (xhr.status === 401) return new AuthError(message);
  // Retry-After is readable from another origin only when the API exposes it; the body says it too
  const header = Number(xhr.getResponseHeader('retry-after'));
  const retryAfterMs = detail.retryAfterMs ?? (header > 0 ? header * 1000 : undefined);
  const extra = { status: xhr.status, limitBytes: detail.limitBytes, detected: detail.detected, retryAfterMs };
  return Object.assign(new RefusedError(code, message), extra) satisfies UploadRefusal;
}

/**
 * `HeedApi.upload` over the wire: the file as the raw body of
 * `POST <api>files?conversationId=…&name=…` with
 * `Authorization: Bearer <token>`, through XMLHttpRequest, since `fetch` reports nothing of an
 * upload's progress. 201 answers the attachment's view; a refusal rejects with an `UploadRefusal`
 * (code, `limitBytes`, `detected`, `retryAfterMs`), a refused token with an `AuthError`, a request
 * that never reached the server with an `OfflineError`, an aborted one with an `AbortError`.
 * Its own chunk, loaded with the first upload (`trpc-api.ts` imports it then).
 *
 * @example await uploadRequest('https://chat.example/', token, { conversationId, name: 'error.png', file });
 */
export function uploadRequest(api: string, token: string | null, input: UploadInput): Promise<AttachmentView> {
  const query = `conversationId=${encodeURIComponent(input.conversationId)}&name=${encodeURIComponent(input.name)}`;
  const url = new URL(`files?${query}`, api).href;
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('The upload was aborted', 'AbortError');
    if (input.signal?.aborted) return reject(aborted());
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    input.signal?.addEventListener('abort', abort, { once: true });
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => input.onProgress?.(e.loaded);
    xhr.onabort = () => reject(aborted());
    xhr.onerror = () => reject(new OfflineError('The upload did not reach the server'));
    xhr.onload = () => {
      input.signal?.removeEventListener('abort', abort);
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body.attachment) resolve(body.attachment);
      else reject(refusal(xhr, body));
    };
    xhr.send(input.file);
  });
}
