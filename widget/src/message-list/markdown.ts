import { nothing } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';
import { marked } from 'marked';
import { setSafeHTML, wantHTML } from './safe-html.ts';

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

  render(_text: string) {
    return nothing;
  }

  override update(part: ElementPart, [text]: [string]) {
    if (text === this.text) return nothing;
    this.text = text;
    renderMarkdown(part.element, text);
    return nothing;
  }
}

export function renderMarkdown(el: Element, text: string): Promise<void> {
  let html: string;
  try {
    html = marked.parse(text, { async: false, gfm: true, breaks: true });
  } catch {
    el.textContent = text;
    return Promise.resolve();
  }
  wantHTML(el, html);
  return setSafeHTML(el, html, text);
}

export const markdown = directive(MarkdownDirective);
