import type { TranscriptMessage } from './contract.ts';

type Labelled = Pick<TranscriptMessage, 'role' | 'provenance' | 'provenanceLabel'>;

/**
 * Who wrote a message, or why it appeared, as the transcript labels it: the visitor, the
 * AI, an operator by name ("Operator — Ana"), or an unsolicited message by its provenance
 * label ("Because you viewed Pricing", "Check-in", "From Shop"), so the source of every
 * word is visible. `siteName` names the site when a server message carries no label.
 * @example provenanceLabel({ role: 'assistant', provenance: null }) // 'AI'
 * @example provenanceLabel({ role: 'operator', provenance: 'operator', provenanceLabel: 'Ana' }) // 'Operator — Ana'
 * @example provenanceLabel({ role: 'assistant', provenance: 'intent', provenanceLabel: 'viewed Pricing' }) // 'Because you viewed Pricing'
 */
export function provenanceLabel(m: Labelled, siteName = 'the site'): string {
  const words = m.provenanceLabel?.trim() || null;
  if (m.role === 'user') return 'Visitor';
  if (m.role === 'operator' || m.provenance === 'operator') return words ? `Operator — ${words}` : 'Operator';
  switch (m.provenance) {
    case 'intent':
      return words ? `Because you ${words}` : 'Because of something you did';
    case 'check_in':
      return 'Check-in';
    case 'server':
      return `From ${words ?? siteName}`;
  }
  if (m.role === 'assistant') return 'AI';
  return m.role === 'notice' ? 'Notice' : m.role;
}

/**
 * The line a notice shows, centred in the transcript: "Ana joined", "Ana left", "Olga handed
 * the conversation back to the assistant" (an owner did it for the holder), "Waiting for a person".
 * @example noticeText({ role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana' }) // 'Ana joined'
 */
export function noticeText(m: Labelled): string {
  const who = m.provenanceLabel?.trim() || 'An operator';
  switch (m.provenance) {
    case 'operator_joined':
      return `${who} joined`;
    case 'operator_left':
      return `${who} left`;
    case 'handed_back':
      return `${who} handed the conversation back to the assistant`;
    case 'handoff_requested':
      return 'Waiting for a person';
    default:
      return m.provenanceLabel?.trim() || 'Notice';
  }
}
