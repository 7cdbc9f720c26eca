import type { Config } from 'dompurify';
import { allowedElements, defaultPolicy, enforcePolicy, type SanitizePolicy } from './sanitize-policy.ts';

/** The part of the HTML Sanitizer API used here (TypeScript's DOM types lack it). */
interface SanitizerConfig {
  elements: { name: string; attributes: string[] }[];
  attributes: string[];
  comments: boolean;
  dataAttributes: boolean;
}
type SanitizingElement = Element & { setHTML?: (html: string, options: { sanitizer: SanitizerConfig }) => void };
type Purify = { sanitize(dirty: Node, config: Config & { RETURN_DOM_FRAGMENT: true }): DocumentFragment };

/** The platform sanitizer's allow-list: the policy's elements, each with its own attributes, nothing global. */
function nativeConfig(policy: SanitizePolicy): SanitizerConfig {
  const elements = Object.entries(allowedElements(policy)).map(([name, attributes]) => ({ name, attributes: [...attributes] }));
  return { elements, attributes: [], comments: false, dataAttributes: false };
}

/**
 * DOMPurify's allow-list from the same policy. Content of a dropped element goes with it,
 * as the platform sanitizer does (so `#text` must be allowed by name). DOMPurify only knows
 * one attribute list for all elements; `enforcePolicy` narrows it per element afterwards.
 * The result stays a DOM fragment, never a string that is parsed again, so the serialize-
 * and-reparse guards of SAFE_FOR_XML (which drop e.g. a link title holding `-->`, where the
 * platform keeps it) have nothing to guard here.
 */
function purifyConfig(policy: SanitizePolicy): Config & { RETURN_DOM_FRAGMENT: true } {
  const allowed = allowedElements(policy);
  return {
    ALLOWED_TAGS: [...Object.keys(allowed), '#text'],
    ALLOWED_ATTR: [...new Set(Object.values(allowed).flat())],
    KEEP_CONTENT: false,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    SAFE_FOR_XML: false,
    RETURN_DOM_FRAGMENT: true,
  };
}

let purify: Promise<Purify> | null = null;

/** DOMPurify, fetched only by browsers without the platform HTML Sanitizer. */
function loadPurify(): Promise<Purify> {
  return (purify ??= import('dompurify').then((m) => m.default as unknown as Purify));
}

let inertBody: HTMLElement | undefined;

/**
 * The body of a document with no browsing context: markup parsed into it loads nothing,
 * runs nothing and fires no events, so an image the policy drops is never fetched. It is
 * a standards-mode document, so both paths parse alike (DOMPurify's own DOMParser parses in
 * quirks mode, where `<p>a<table>` nests differently).
 */
function inert(): HTMLElement {
  return (inertBody ??= document.implementation.createHTMLDocument('').body);
}

/**
 * Puts untrusted HTML into `el`, reduced to `policy` (see `sanitize-policy.ts`): parsed and
 * sanitized in an inert document through `Element.setHTML` (Chromium and Firefox ship it)
 * or, where it is missing, DOMPurify loaded on first use; then `enforcePolicy`, which both
 * paths share, applies the element, attribute and URL rules; only then does the result move
 * into `el`. Until the sanitizer is ready, and if anything fails, `fallbackText` shows as
 * plain text. Returns when the final content is in place.
 *
 * @example await setSafeHTML(bubble, marked.parse(reply), reply);
 */
export async function setSafeHTML(el: Element, html: string, fallbackText: string, policy = defaultPolicy): Promise<void> {
  try {
    const body = inert() as HTMLElement & SanitizingElement;
    if (typeof body.setHTML === 'function') {
      body.setHTML(html, { sanitizer: nativeConfig(policy) });
    } else {
      el.textContent = fallbackText;
      const p = await loadPurify();
      if (pending.get(el) !== html) return; // a newer text arrived meanwhile
      body.innerHTML = html;
      const parsed = body.ownerDocument.createDocumentFragment();
      parsed.append(...body.childNodes); // DOMPurify takes a fragment's children as its body's
      body.replaceChildren(p.sanitize(parsed, purifyConfig(policy)));
    }
    // from the parse to the move nothing awaits, so one shared inert body serves every call
    enforcePolicy(body, policy);
    el.replaceChildren(...body.childNodes);
  } catch {
    el.textContent = fallbackText;
  }
}

/** The latest HTML wanted per element, so a slow sanitizer load never shows stale text. */
const pending = new WeakMap<Element, string>();

export function wantHTML(el: Element, html: string): void {
  pending.set(el, html);
}
