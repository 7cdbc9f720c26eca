import type { Attention } from '../../../api/src/shared/attention.ts';

/** Each attention state as an operator reads it (never the raw value). */
const LABELS: Record<Attention, string> = {
  live: 'Replying now',
  input_needed: 'Waiting for the visitor’s answer to a question',
  unviewed: 'Reply not yet seen by the visitor',
  waiting: 'Waiting for a person',
  default: 'Nothing pending',
};

/**
 * A conversation's state in words: failed, or what its attention state means.
 * @example stateLabel({ failed: false, attention: 'input_needed' }) // 'Waiting for the visitor’s answer to a question'
 */
export const stateLabel = (c: { failed: boolean; attention: Attention }): string => (c.failed ? 'Reply failed' : LABELS[c.attention]);

/** Each state in a word or two, as the widget's rows say it (a list row's status). */
export const SHORT_LABELS: Record<Exclude<Attention, 'default'>, string> = {
  live: 'Live',
  input_needed: 'Input needed',
  unviewed: 'New response',
  waiting: 'Waiting for a person',
};
