import { ATTENTION_PRIORITY, attentionOf, type Attention } from '../../../api/src/shared/attention.ts';
import type { ConversationView } from '../state/types.ts';

/** The attention states that call the visitor back into a thread, highest priority first. */
const CALLING: readonly Attention[] = ATTENTION_PRIORITY.filter((a) => a === 'live' || a === 'input_needed' || a === 'unviewed');

/** What this tab remembers of where the visitor was (see `ViewMemory`). */
export interface LandingMemory {
  /** the thread open in this tab before (a reload returns to it while it is still theirs) */
  conversationId: string | null;
  /** the visitor went home on purpose: the home view stays */
  home: boolean;
}

/**
 * Where opening the widget puts the visitor: the thread this tab had open; else the
 * conversation whose attention state ranks highest (live, input needed, unviewed: the one
 * attention rule); else the most recent one. Null keeps the home view: the visitor went
 * home on purpose, or has no conversation yet. `conversations` are most recently active first.
 * @example landingConversation(store.state.conversations, { conversationId: null, home: false })
 */
export function landingConversation(conversations: readonly ConversationView[], memory: LandingMemory): string | null {
  if (memory.home) return null;
  if (memory.conversationId && conversations.some((c) => c.id === memory.conversationId)) return memory.conversationId;
  let best: { id: string; rank: number } | null = null;
  for (const c of conversations) {
    const rank = CALLING.indexOf(attentionOf(c));
    if (rank !== -1 && (!best || rank < best.rank)) best = { id: c.id, rank };
  }
  return best?.id ?? latestConversation(conversations)?.id ?? null;
}

/** The conversation "Continue" offers and a send from home goes into: the most recently active one. */
export function latestConversation(conversations: readonly ConversationView[]): ConversationView | undefined {
  return conversations[0];
}
