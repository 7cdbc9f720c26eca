/**
 * The per-page errors a stored value holds (`KnowledgeSource.pageErrors`), or none.
 * @example readPageErrors([{ url: 'https://s.example/a', error: 'HTTP 404' }]) // the same
 */
export function readPageErrors(value: unknown): { url: string; error: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is { url: string; error: string } => typeof e?.url === 'string' && typeof e?.error === 'string');
}
