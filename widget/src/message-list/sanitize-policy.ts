/**
 * What a rendered reply may contain, in one place: the elements GFM Markdown produces, the
 * attributes each may keep, and the URL rules. Replies are model output, which a prompt
 * injection can steer, so anything that could run script, post a form, restyle or cover the
 * page, clobber the DOM or load a remote resource on its own is left out. Both sanitizer
 * paths are configured from these lists and then run `enforcePolicy`, so they agree.
 */
export interface SanitizePolicy {
  /**
   * Hosts (`cdn.example.com`, with `:port` if not 443) whose `https:` images a reply may
   * show; empty (the default) drops every image, so no reply can make the browser fetch
   * anything on its own (tracking pixels, exfiltration through URLs).
   */
  readonly allowedImageHosts: readonly string[];
}

export const defaultPolicy: SanitizePolicy = { allowedImageHosts: [] };

/** Element name → the attributes it may keep. No `id`, `name`, `class` or `style` anywhere. */
const markdownElements: Readonly<Record<string, readonly string[]>> = {
  p: [],
  br: [],
  hr: [],
  strong: [],
  em: [],
  del: [],
  code: [],
  pre: [],
  blockquote: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ['start'],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['align'],
  td: ['align'],
  a: ['href', 'title'],
};
const imageElement = { img: ['src', 'alt', 'title'] } as const;

/** The allow-list in force: Markdown's elements, plus `img` only where image hosts are listed. */
export function allowedElements(policy: SanitizePolicy): Readonly<Record<string, readonly string[]>> {
  return policy.allowedImageHosts.length ? { ...markdownElements, ...imageElement } : markdownElements;
}

const linkSchemes = ['http:', 'https:', 'mailto:'];
const alignments = ['left', 'center', 'right'];

/**
 * `value` as the URL a browser would follow, if it is absolute with one of `schemes`.
 * Parsing with the platform's own URL parser (not a regex) sees through case, tabs,
 * newlines and control characters exactly as navigation would. A relative URL is refused:
 * it would resolve against whichever page embeds the widget, which a reply knows nothing of.
 */
function parseUrl(value: string | null, schemes: readonly string[]): URL | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return schemes.includes(url.protocol) ? url : null;
  } catch {
    return null; // relative, or not a URL at all
  }
}

/**
 * The post-pass both sanitizer paths run, and the only place URL rules live: drops every
 * element and attribute outside the allow-list (elements with their content), unwraps links
 * whose URL is not an absolute `http:`, `https:` or `mailto:` one (keeping their text) and
 * makes the rest open in a new tab with no opener or referrer, drops images not served
 * over `https:` from an allowed host, and keeps `align` and `start` only when valid.
 *
 * @example enforcePolicy(fragment, defaultPolicy);
 */
export function enforcePolicy(root: ParentNode, policy: SanitizePolicy): void {
  const allowed = allowedElements(policy);
  const hosts = policy.allowedImageHosts.map((h) => h.toLowerCase());
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (!root.contains(el)) continue; // inside an element removed earlier
    const attrs = el.namespaceURI === 'http://www.w3.org/1999/xhtml' ? allowed[el.localName] : undefined;
    if (!attrs) {
      el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) if (attr.namespaceURI || !attrs.includes(attr.name)) el.removeAttributeNode(attr);
    if (el.localName === 'a') {
      const href = el.getAttribute('href');
      const url = parseUrl(href, linkSchemes);
      if (!url) {
        el.replaceWith(...el.childNodes);
        continue;
      }
      // one spelled with whitespace, entities or odd case is written as the URL it opens
      if (!href!.startsWith(url.protocol)) el.setAttribute('href', url.href);
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    } else if (el.localName === 'img') {
      const url = parseUrl(el.getAttribute('src'), ['https:']);
      if (!url || !hosts.includes(url.host)) {
        el.remove();
        continue;
      }
      el.setAttribute('src', url.href);
      el.setAttribute('referrerpolicy', 'no-referrer');
    } else if (el.hasAttribute('align') && !alignments.includes(el.getAttribute('align')!)) {
      el.removeAttribute('align');
    } else if (el.hasAttribute('start') && !/^\d{1,9}$/.test(el.getAttribute('start')!)) {
      el.removeAttribute('start');
    }
  }
}
