import { mac, macMatches, type SigningKeys } from '../auth/signing-keys.ts';

const PURPOSE = 'heed-file-link';

/** How long an export's file links work: a day to download them, not a permanent address to leak. */
export const SIGNED_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A file's address that stops working at `expiresAt`, for handing files out of Heed (a
 * visitor's data export), unlike the thread's `?k=` address, which lives as long as the file.
 * Relative to the API's base URL, as attachmentUrl is.
 * @example signedFileUrl(keys, attachmentId, new Date(Date.now() + SIGNED_LINK_TTL_MS)) // 'files/6f1c…?x=1765…&s=Zq3…'
 */
export function signedFileUrl(keys: SigningKeys, attachmentId: string, expiresAt: Date): string {
  const x = Math.floor(expiresAt.getTime() / 1000);
  return `files/${attachmentId}?x=${x}&s=${mac(keys.current.secret, PURPOSE, `${attachmentId}.${x}`)}`;
}

/** Whether a signed address (`x`, `s`) is genuine for this file and not expired; the previous secret still signs during a rotation. */
export function signedFileLinkValid(keys: SigningKeys, attachmentId: string, q: { x: string; s: string }, now = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(q.x) || Number(q.x) * 1000 <= now) return false;
  return [keys.current, keys.previous].some((k) => !!k && macMatches(q.s, mac(k.secret, PURPOSE, `${attachmentId}.${q.x}`)));
}
