type SanitizingElement = Element & { setHTML?: (html: string) => void };
type Purify = { sanitize(html: string): string };

let purify: Promise<Purify> | null = null;

/** DOMPurify, fetched only by browsers without the platform HTML Sanitizer. */
function loadPurify(): Promise<Purify> {
  return (purify ??= import('dompurify').then((m) => m.default as Purify));
}

/** Links from replies open in a new tab and tell the target nothing about this page. */
function hardenLinks(el: Element): void {
  for (const a of el.querySelectorAll('a[href]')) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
}

/**
 * Puts untrusted HTML into `el` with scripts, handlers and `javascript:` URLs removed:
 * through `Element.setHTML` (Chromium and Firefox ship it) or, where it is missing,
 * DOMPurify loaded on first use. Until the sanitizer is ready, and if anything fails,
 * `fallbackText` shows as plain text. Returns when the final content is in place.
 */
export async function setSafeHTML(el: Element, html: string, fallbackText: string): Promise<void> {
  const target = el as SanitizingElement;
  try {
    if (typeof target.setHTML === 'function') {
      target.setHTML(html);
      hardenLinks(el);
      return;
    }
    el.textContent = fallbackText;
    const p = await loadPurify();
    if (pending.get(el) !== html) return; // a newer text arrived meanwhile
    el.innerHTML = p.sanitize(html);
    hardenLinks(el);
  } catch {
    el.textContent = fallbackText;
  }
}

/** The latest HTML wanted per element, so a slow sanitizer load never shows stale text. */
const pending = new WeakMap<Element, string>();

export function wantHTML(el: Element, html: string): void {
  pending.set(el, html);
}
