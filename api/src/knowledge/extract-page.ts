import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** One part of a page under its heading: what an excerpt is cut from. */
export interface PageSection {
  /** the nearest heading above it (the page's title for text before any heading) */
  heading: string;
  text: string;
}

/** A page's main text as Heed keeps it, and the links it holds (for a crawl from one page). */
export interface ExtractedPage {
  title: string;
  sections: PageSection[];
  /** absolute http(s) links of the page, fragments removed, in order, each once */
  links: string[];
}

const BLOCKS = 'h1, h2, h3, h4, h5, h6, p, li, pre, blockquote, td, th, dt, dd';
const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/**
 * The main text of an HTML page, without navigation, footer and other boilerplate (Mozilla's
 * Readability on a server-side DOM), split at its headings. Links are read from the whole page
 * before that, resolved against `url`. Nothing in the page runs: no scripts, no styles, no
 * requests.
 * @example extractPage(html, 'https://shop.example/shipping').sections[0] // { heading: 'Costs', text: 'Free above 50 EUR…' }
 */
export function extractPage(html: string, url: string): ExtractedPage {
  // linkedom builds no body for a document that leaves out <html> and <body> (as HTML allows): give it one
  const { document } = parseHTML(/<body[\s>]/i.test(html) ? html : `<html><body>${html.replace(/^\s*<!doctype[^>]*>/i, '')}</body></html>`);
  const links = [
    ...new Set(
      [...document.querySelectorAll('a[href]')]
        .map((a) => (URL.canParse(a.getAttribute('href') ?? '', url) ? new URL(a.getAttribute('href')!, url) : null))
        .filter((u): u is URL => u !== null && (u.protocol === 'http:' || u.protocol === 'https:'))
        .map((u) => ((u.hash = ''), u.href)),
    ),
  ];
  const pageTitle = clean(document.querySelector('title')?.textContent) || clean(document.querySelector('h1')?.textContent) || url;
  const article = new Readability(document as unknown as Document).parse();
  const title = clean(article?.title) || pageTitle;
  const { document: body } = parseHTML(`<html><body>${article?.content ?? ''}</body></html>`);
  const sections: PageSection[] = [];
  let heading = title;
  let lines: string[] = [];
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) sections.push({ heading, text });
    lines = [];
  };
  for (const el of body.querySelectorAll(BLOCKS)) {
    // a block inside another block is read with its parent
    if (el.parentElement?.closest(BLOCKS)) continue;
    const text = clean(el.textContent);
    if (!text) continue;
    if (/^H[1-6]$/.test(el.tagName)) {
      flush();
      heading = text;
    } else lines.push(el.tagName === 'LI' ? `- ${text}` : text);
  }
  flush();
  return { title, sections, links };
}
