/** A page a reply cites: its number in the reply (`[n]`), title and address (null: a file's or a snippet's text, nothing to link to). */
// a type, not an interface: it is stored as JSON, which needs its implicit index signature
export type CitedSource = {
  n: number;
  title: string;
  url: string | null;
};

/** An excerpt a run was shown (`Run.retrieved`), numbered as the model could cite it. */
export type RetrievedExcerpt = CitedSource & { heading: string };

/**
 * The excerpts a run was shown, as the console's transcript lists them beside what the reply cited.
 * @example retrievedOf([{ title: 'Shipping', url: 'https://shop.example/shipping', heading: 'Costs' }]) // [{ n: 1, … }]
 */
export function retrievedOf(excerpts: readonly { title: string; url: string | null; heading: string }[]): RetrievedExcerpt[] {
  return excerpts.map((e, i) => ({ n: i + 1, title: e.title, url: e.url, heading: e.heading }));
}

/**
 * The excerpts a reply cites, in the order it first cites them: `[2]`, `[1][3]` and `[1, 3]`
 * count; numbers outside the excerpts shown, or repeated, do not. The addresses come from the
 * excerpts, never from the reply, so a model cannot add a link of its own.
 * @example citedSources('Free above 50 EUR [2].', excerpts) // [{ n: 2, title: 'Shipping', url: 'https://shop.example/shipping' }]
 */
export function citedSources(text: string, excerpts: readonly { title: string; url: string | null }[]): CitedSource[] {
  const cited: CitedSource[] = [];
  for (const group of text.matchAll(/\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g)) {
    for (const n of group[1]!.split(',').map((x) => Number(x.trim()))) {
      const excerpt = excerpts[n - 1];
      if (!excerpt || cited.some((c) => c.n === n)) continue;
      cited.push({ n, title: excerpt.title, url: excerpt.url });
    }
  }
  return cited;
}

/**
 * The cited sources a stored value holds (the `Message.sources` column), or none.
 * @example readSources([{ n: 1, title: 'Shipping', url: 'https://shop.example/shipping' }]) // the same
 */
export function readSources(value: unknown): CitedSource[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (s): s is CitedSource =>
      typeof s === 'object' &&
      s !== null &&
      typeof s.n === 'number' &&
      typeof s.title === 'string' &&
      (typeof s.url === 'string' || s.url === null),
  );
}

/** The excerpts a stored `Run.retrieved` value holds, or none. */
export function readRetrieved(value: unknown): RetrievedExcerpt[] {
  return readSources(value).flatMap((e) => {
    const heading = (e as { heading?: unknown }).heading;
    return typeof heading === 'string' ? [{ ...e, heading }] : [];
  });
}

/** A cited address the widget may link to: http(s) only (what a crawl reads). */
export const linkableSource = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url) && URL.canParse(url);
