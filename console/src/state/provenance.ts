/**
 * Who wrote a message, as the transcript labels it: the visitor, the AI, or (later) an
 * operator; a stored provenance (an intent, a proactive check-in, an operator) is named
 * after it so the source of every word is visible.
 * @example provenanceLabel('assistant', null) // 'AI'
 * @example provenanceLabel('assistant', 'proactive') // 'AI · proactive'
 */
export function provenanceLabel(role: string, provenance: string | null): string {
  const who = role === 'user' ? 'Visitor' : role === 'assistant' ? 'AI' : role === 'operator' ? 'Operator' : role;
  const why = provenance?.replace(/[_-]+/g, ' ').trim();
  return why && why.toLowerCase() !== who.toLowerCase() ? `${who} · ${why}` : who;
}
