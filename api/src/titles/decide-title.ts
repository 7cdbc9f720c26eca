import { normalizeTitle } from './normalize-title.ts';
import { readTitleAnswer } from './read-title-answer.ts';

export type TitleDecision =
  /** store `title` (source `generated`); `changed` says whether the visible title text moved */
  | { outcome: 'changed' | 'kept'; title: string }
  | {
      outcome: 'rejected';
      errorCode: 'invalid_answer' | 'invalid_title' /** why, for the log (never the answer itself) */;
      reason: string;
    };

/**
 * Turns the model's raw answer into what the pass writes. A generated title is kept unless
 * the model says it changed AND proposes a different title; a first-message title is always
 * replaced by a valid proposal (the model is told to propose one), and becomes `generated`
 * even when the text happens to match.
 * @example decideTitle({ title: 'Hi', source: 'first_message' }, '{"title":"Greeting","changed":true}')
 * // { outcome: 'changed', title: 'Greeting' }
 */
export function decideTitle(
  current: { title: string | null; source: 'first_message' | 'generated' },
  content: string | null,
  /** the server takes no structured output: a bare one-line title is an answer too */
  opts: { prose?: boolean } = {},
): TitleDecision {
  const answer = readTitleAnswer(content, opts);
  if (!answer.ok) return { outcome: 'rejected', errorCode: 'invalid_answer', reason: answer.reason };
  const proposed = normalizeTitle(answer.answer.title);
  if (proposed === null) return { outcome: 'rejected', errorCode: 'invalid_title', reason: 'nothing left after normalization' };

  if (current.title === null) return { outcome: 'changed', title: proposed };
  const same = sameTitle(current.title, proposed);
  if (current.source === 'first_message') return same ? { outcome: 'kept', title: current.title } : { outcome: 'changed', title: proposed };
  if (!answer.answer.changed || same) return { outcome: 'kept', title: current.title };
  return { outcome: 'changed', title: proposed };
}

/** Same words, ignoring case and spacing: a recased title is not worth a sidebar change. */
function sameTitle(a: string, b: string): boolean {
  const key = (s: string) => s.replace(/\s+/g, ' ').trim().toLocaleLowerCase();
  return key(a) === key(b);
}
