import type { ConversationView, ThreadMessage } from './types.ts';

const time = (t: string | null) => (t ? Date.parse(t) : Number.NEGATIVE_INFINITY);

/**
 * Puts a conversation into the list, most recently active first. An older copy (a slow
 * mutation answer racing newer events) never replaces a newer one, and the read marker
 * only moves forward, like on the server.
 */
export function upsertConversation(list: readonly ConversationView[], next: ConversationView): ConversationView[] {
  const old = list.find((c) => c.id === next.id);
  let merged = next;
  if (old) {
    const base = time(next.updatedAt) < time(old.updatedAt) ? old : next;
    const lastReadAt = time(old.lastReadAt) > time(next.lastReadAt) ? old.lastReadAt : next.lastReadAt;
    merged = { ...base, lastReadAt };
  }
  return [merged, ...list.filter((c) => c.id !== next.id)].sort((a, b) => time(b.updatedAt) - time(a.updatedAt) || (a.id < b.id ? -1 : 1));
}

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

export function setMessageStates(thread: readonly ThreadMessage[], match: (m: ThreadMessage) => boolean, patch: Partial<ThreadMessage>): ThreadMessage[] {
  return thread.map((m) => (match(m) ? { ...m, ...patch } : m));
}
