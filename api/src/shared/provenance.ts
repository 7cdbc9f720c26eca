/**
 * Why a message appeared when it does not answer the visitor's own words: the provenance
 * label's kind. Pure and dependency-free: the API stores it, the widget and console label
 * messages with it (the label's words, `provenanceLabel`, are the operator's name, the
 * intent's label or the site's name).
 */
export const PROVENANCES = [
  /** role operator: a person from the site's team wrote it ("Operator — Ana") */
  'operator',
  /** role assistant, unsolicited: the host page fired an intent ("Because you viewed Pricing") */
  'intent',
  /** role assistant, unsolicited: the visitor went silent after an open question or todo ("Check-in") */
  'check_in',
  /** role assistant, unsolicited: the site's server sent it */
  'server',
  /** role notice: an operator took the conversation over ("Ana joined") */
  'operator_joined',
  /** role notice: the operator handed the conversation back to the assistant ("Ana left") */
  'operator_left',
  /**
   * role notice: an owner handed back a conversation another operator held (the label is the
   * owner's name: "Olga handed the conversation back to the assistant"), so the words credit who did it
   */
  'handed_back',
  /** role notice: the assistant asked for a person ("A person from <site> will reply here") */
  'handoff_requested',
  /**
   * role user, no words: the visitor asked for the rest of a reply cut short ("Continue"). It is
   * an outbox row like any send (so a run claims it), never shown as a bubble, and the model
   * gets it as the request to go on where the reply stopped, not as something the visitor wrote
   */
  'continue',
] as const;
export type Provenance = (typeof PROVENANCES)[number];

/** The provenances of unsolicited messages: the budget counts these. */
export const UNSOLICITED = ['intent', 'check_in', 'server'] as const satisfies readonly Provenance[];
export type Unsolicited = (typeof UNSOLICITED)[number];

/** A stored value as a provenance; anything unknown (an older or newer server) reads as none. */
export function asProvenance(value: string | null): Provenance | null {
  return (PROVENANCES as readonly string[]).includes(value ?? '') ? (value as Provenance) : null;
}
