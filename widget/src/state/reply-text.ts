/**
 * How the streaming text of one reply follows the server's untracked events. Pure.
 *
 * A snapshot replaces what we have. A delta carries the `offset` where its text starts:
 * it extends the text only when it reaches the current end; the part we already hold is
 * trimmed, a delta wholly behind us is dropped, and one that starts beyond the end (a gap)
 * is ignored until the next snapshot or the stored reply repairs it.
 *
 * @example applyDelta('Hel', { offset: 1, text: 'ello' }) // 'Hello'
 */
export function applyDelta(current: string, delta: { offset: number; text: string }): string {
  if (delta.offset > current.length) return current;
  const end = delta.offset + delta.text.length;
  if (end <= current.length) return current;
  return current + delta.text.slice(current.length - delta.offset);
}

export function applySnapshot(_current: string, snapshot: { text: string }): string {
  return snapshot.text;
}
