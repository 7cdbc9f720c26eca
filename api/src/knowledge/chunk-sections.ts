import type { PageSection } from './extract-page.ts';

/** A piece of a page as retrieval finds it and the model reads it. */
export interface Excerpt {
  heading: string;
  text: string;
}

/** About a paragraph or three: small enough to quote, big enough to answer from (≈ 250 tokens). */
export const EXCERPT_MAX_CHARS = 1000;

/**
 * A page's sections cut into excerpts of at most `max` characters, at line breaks (a longer
 * line at a sentence or word end), each under its section's heading. Pure.
 * @example chunkSections([{ heading: 'Costs', text: 'Free above 50 EUR.' }]) // [{ heading: 'Costs', text: 'Free above 50 EUR.' }]
 */
export function chunkSections(sections: readonly PageSection[], max = EXCERPT_MAX_CHARS): Excerpt[] {
  const out: Excerpt[] = [];
  for (const { heading, text } of sections) {
    let current = '';
    const push = () => {
      if (current.trim()) out.push({ heading, text: current.trim() });
      current = '';
    };
    for (const line of text.split('\n').flatMap((l) => split(l, max))) {
      if (current && current.length + 1 + line.length > max) push();
      current = current ? `${current}\n${line}` : line;
    }
    push();
  }
  return out;
}

/** A line longer than `max`, cut at sentence ends, else at spaces, else hard. */
function split(line: string, max: number): string[] {
  if (line.length <= max) return [line];
  const parts: string[] = [];
  let rest = line;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const at = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
    const cut = at > max / 2 ? at + 1 : window.lastIndexOf(' ') > max / 2 ? window.lastIndexOf(' ') : max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
