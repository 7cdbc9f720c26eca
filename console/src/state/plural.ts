const rules = new Intl.PluralRules('en');

/** The words of the console's counts: each noun's one and other form. */
const NOUNS = {
  conversation: ['conversation', 'conversations'],
  message: ['message', 'messages'],
  reply: ['reply', 'replies'],
  failure: ['failure', 'failures'],
  excerpt: ['excerpt', 'excerpts'],
  question: ['question', 'questions'],
  page: ['page', 'pages'],
  attachment: ['attachment', 'attachments'],
  file: ['file', 'files'],
} as const satisfies Record<string, readonly [string, string]>;

/**
 * A count with its noun in the right form, by the language's plural rules (Intl.PluralRules):
 * the one owner of "1 conversation" and "2 conversations" in the console.
 * @example counted(1, 'conversation') // '1 conversation'
 * @example counted(0, 'reply') // '0 replies'
 */
export function counted(n: number, noun: keyof typeof NOUNS): string {
  const [one, other] = NOUNS[noun];
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? one : other}`;
}
