import type { ThreadMessage } from './types.ts';

/**
 * Merges messages into a thread: a stored message replaces the optimistic copy with the
 * same `clientMessageId`; stored ones keep the server's order, unacknowledged ones follow.
 */
export function mergeMessages(thread: readonly ThreadMessage[], incoming: readonly ThreadMessage[]): ThreadMessage[] {
  const out = [...thread];
  for (const m of incoming) {
    const i = out.findIndex((o) => o.id === m.id || (m.clientMessageId !== null && o.clientMessageId === m.clientMessageId));
    if (i === -1) out.push(m);
    else if (!(out[i]!.seq && m.pending)) out[i] = m;
  }
  const stored = out.filter((m) => m.seq).sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : BigInt(a.seq) > BigInt(b.seq) ? 1 : 0));
  return [...stored, ...out.filter((m) => !m.seq)];
}

export function setMessageStates(
  thread: readonly ThreadMessage[],
  match: (m: ThreadMessage) => boolean,
  patch: Partial<ThreadMessage>,
): ThreadMessage[] {
  return thread.map((m) => (match(m) ? { ...m, ...patch } : m));
}

/** Shows the question of an input request as answered (the server has the answer). */
export function markAnswered(thread: readonly ThreadMessage[], requestId: string): ThreadMessage[] {
  return thread.map((m) => (m.inputRequest?.id === requestId ? { ...m, inputRequest: { ...m.inputRequest, status: 'answered' } } : m));
}
