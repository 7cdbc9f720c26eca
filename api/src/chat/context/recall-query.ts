/**
 * Recall's search terms, built from the WHOLE pending batch. Messages are tokenized the way
 * PostgreSQL's `simple` text-search configuration stores them (lowercased runs of letters and
 * digits), short words and common function words are dropped (`simple` keeps stop words in the
 * index, so the query must leave them out or every message would match), and terms are taken
 * from each message in turn, so a long last message can never crowd out the first one.
 */

/** Most terms one query carries; a batch is at most a few messages, so this rarely cuts. */
export const RECALL_TERMS_MAX = 32;
/** Terms this long or longer also match longer words (`walnut` finds `walnuts`), a stemmer-free inflection. */
export const PREFIX_MIN = 5;

// Frequent function words of the languages we see most (en, fr, de, es, it, pt, nl); words under 3
// letters are dropped anyway. A missed stop word costs ranking quality, never correctness.
const STOP_WORDS = new Set(
  `the and for are but not you your yours all any can had has have her was one our out him his how its let may
  new now off old see two way who did get got use she too via yes also been from into just like more most much
  must only over said some such than that them then they this very what when where which while will with would
  about after again could does doing each here hers ours should there these those through under until upon what
  whom why want wants need needs know thanks thank please hello hey okay yeah sure really still even well back
  les des une est pas pour que qui dans sur avec vous nous mais ces son ses aux par plus tout tous bien être avoir
  fait comme elle ils leur sont été cette aussi très merci bonjour
  der die das und ist nicht ein eine einen dem den des mit sich auf für von sie ich wir ihr auch noch nur wie bei
  aus oder aber wenn dass bitte danke hallo
  los las del una por con para como más pero sus esta este ese esa hay muy gracias hola qué
  che non per una sono della delle con come anche grazie ciao
  uma com não para como mais obrigado olá
  het een van dat niet zijn voor met ook maar bedankt`.split(/\s+/),
);

/**
 * The distinct search terms of a batch, interleaved across its messages (first term of each
 * message, then the second of each, …), at most {@link RECALL_TERMS_MAX}.
 *
 * @example recallTerms(['My walnut bookshelf order', 'what time is it?', 'ok'])
 * // ['walnut', 'time', 'bookshelf', 'order']
 */
export function recallTerms(texts: readonly string[]): string[] {
  const perText = texts.map(words);
  const seen = new Set<string>();
  const terms: string[] = [];
  for (let i = 0; terms.length < RECALL_TERMS_MAX && perText.some((w) => i < w.length); i++) {
    for (const list of perText) {
      const term = list[i];
      if (term === undefined || seen.has(term)) continue;
      seen.add(term);
      terms.push(term);
      if (terms.length === RECALL_TERMS_MAX) break;
    }
  }
  return terms;
}

/** The words of one message worth searching for, in order, without repeats. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (Array.from(w).length < 3 || STOP_WORDS.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

/**
 * The terms as a `to_tsquery('simple', …)` text: any term matches (OR), long terms also as a
 * prefix. Safe to pass as a parameter: terms hold only letters and digits, so no tsquery
 * operator or quote can come from a visitor's text.
 *
 * @example tsQueryText(['walnut', 'tv']) // "'walnut':* | 'tv'"
 */
export function tsQueryText(terms: readonly string[]): string {
  return terms.map((t) => `'${t}'${Array.from(t).length >= PREFIX_MIN ? ':*' : ''}`).join(' | ');
}
