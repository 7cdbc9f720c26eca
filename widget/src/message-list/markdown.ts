import { nothing } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';
import { Marked, type Tokens } from 'marked';
import { setSafeHTML, wantHTML } from './safe-html.ts';
import { allowedElements, defaultPolicy, type SanitizePolicy } from './sanitize-policy.ts';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);
const bareTag = /^<\/?([a-z][a-z0-9]*)\s*\/?>$/i;

/**
 * Raw HTML in a reply shows as the text it is (`<img onerror=…>` reads as written), except a
 * bare tag of an allowed element (`<br>` in a table cell, `<strong>`), which carries no
 * attribute to abuse. The sanitizer would strip the rest anyway; showing it keeps the text
 * around a stray `<Enter>` that an allow-list would otherwise drop with its content.
 */
function rawHtml({ text, block }: Tokens.HTML | Tokens.Tag): string {
  const name = bareTag.exec(text.trim())?.[1];
  if (name && Object.hasOwn(allowedElements(defaultPolicy), name.toLowerCase())) return text;
  return block ? `<p>${escapeHtml(text.trim()).replace(/\n/g, '<br>')}</p>` : escapeHtml(text);
}

/** GFM with single newlines as breaks; task-list boxes as ☑/☐ text, since no form control is allowed. */
const md = new Marked({
  gfm: true,
  breaks: true,
  renderer: { html: rawHtml, checkbox: ({ checked }) => (checked ? '☑ ' : '☐ ') },
});

/**
 * Renders Markdown into the element it is placed on, sanitized, links hardened; plain
 * text if parsing fails. Re-renders only when the text changes (a streaming reply
 * changes on every delta; everything else never).
 *
 * @example html`<div ${markdown(message.content)}></div>`
 */
class MarkdownDirective extends Directive {
  private text: string | undefined;

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('markdown() goes on an element');
  }

  render(_text: string, _policy?: SanitizePolicy) {
    return nothing;
  }

  override update(part: ElementPart, [text, policy]: [string, SanitizePolicy?]) {
    if (text === this.text) return nothing;
    this.text = text;
    renderMarkdown(part.element, text, policy);
    return nothing;
  }
}

/**
 * Renders `text` as Markdown into `el` through `setSafeHTML` under `policy`; resolves when
 * the final content is in place.
 *
 * @example await renderMarkdown(div, '**hi** [docs](https://example.com)');
 */
export function renderMarkdown(el: Element, text: string, policy: SanitizePolicy = defaultPolicy): Promise<void> {
  let html: string;
  try {
    html = md.parse(text, { async: false });
  } catch {
    el.textContent = text;
    return Promise.resolve();
  }
  wantHTML(el, html);
  return setSafeHTML(el, html, text, policy);
}

export const markdown = directive(MarkdownDirective);
