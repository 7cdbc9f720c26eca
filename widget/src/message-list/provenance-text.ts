import type { Messages } from '../i18n/en.ts';
import type { MessageView } from '../state/types.ts';

type Labelled = Pick<MessageView, 'role' | 'provenance' | 'provenanceLabel'>;

/**
 * The words of a message's provenance label in the widget's language: why a message appeared
 * when it does not answer the visitor's own words ("Operator — Ana", "Because you viewed
 * Pricing", "Check-in", "From Acme"). Null for a reply, the visitor's own message, a notice and
 * a provenance this widget does not know (a newer server's). Pure: `strings` is the current `t`.
 *
 * `provenanceLabel` is the server's word for the name (the operator's name, the intent's label,
 * the site's name); `siteName` stands in for a missing site name.
 *
 * @example provenanceText({ role: 'operator', provenance: 'operator', provenanceLabel: 'Ana' }, t, 'Acme') // 'Operator — Ana'
 */
export function provenanceText(m: Labelled, strings: Messages, siteName: string | null = null): string | null {
  const label = m.provenanceLabel ?? null;
  if (m.role === 'operator') return label ? strings.operatorNamed(label) : strings.operator;
  if (m.role !== 'assistant') return null;
  switch (m.provenance) {
    case 'intent':
      return label ? strings.becauseYou(label) : null;
    case 'check_in':
      return strings.checkIn;
    case 'server': {
      const site = label ?? siteName;
      return site ? strings.fromSite(site) : null;
    }
    default:
      return null;
  }
}

/**
 * The line a notice shows, centred in the thread ("Ana joined"), or null when this widget does
 * not know its provenance (a newer server's): an empty line would say nothing.
 *
 * @example noticeText({ role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana' }, t, 'Acme') // 'Ana joined'
 */
export function noticeText(m: Labelled, strings: Messages, siteName: string | null = null): string | null {
  if (m.role !== 'notice') return null;
  const label = m.provenanceLabel ?? null;
  switch (m.provenance) {
    case 'operator_joined':
      return strings.operatorJoined(label ?? strings.operator);
    case 'operator_left':
      return strings.operatorLeft(label ?? strings.operator);
    case 'handed_back':
      return strings.handedBack(label ?? strings.operator);
    case 'handoff_requested': {
      const site = label ?? siteName;
      return site ? strings.handoffRequested(site) : null;
    }
    default:
      return null;
  }
}
