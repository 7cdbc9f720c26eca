/** A site's greeting by language code (`de`, `pt`…), as stored in `Site.greetings`. */
export type Greetings = Record<string, string>;

/**
 * The greetings a stored value holds: its string entries with a language code for key, or null
 * when there are none (a column written by hand, or by an older version, reads safely).
 * @example readGreetings({ de: 'Hallo!', fr: 3 }) // { de: 'Hallo!' }
 */
export function readGreetings(value: unknown): Greetings | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value).filter(([k, v]) => /^[a-z]{2,3}$/.test(k) && typeof v === 'string' && v.trim() !== '');
  return entries.length > 0 ? (Object.fromEntries(entries) as Greetings) : null;
}

/**
 * The greeting a visitor reads in the widget's language `lang` (a tag such as `de` or `pt-BR`):
 * the site's greeting in that language, else its greeting as written, else none.
 * @example greetingFor({ greeting: 'Hi!', greetings: { de: 'Hallo!' } }, 'de-AT') // 'Hallo!'
 */
export function greetingFor(site: { greeting: string | null; greetings?: Greetings | null }, lang: string): string | null {
  const code = lang.toLowerCase().split('-')[0] ?? '';
  return site.greetings?.[code] ?? site.greeting;
}
