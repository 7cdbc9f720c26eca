import { html } from 'lit';
import { property, query } from 'lit/decorators.js';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { sendIcon } from '../shared/panel-icons.ts';
import { styles } from './composer.styles.ts';

/**
 * Where the visitor writes: a textbox named "Message" and a "Send" button. Enter sends,
 * Shift+Enter starts a new line. It stays usable while a reply streams — a message sent
 * then is answered by the next reply.
 *
 * @event heed-typing - The visitor typed (each change of a non-empty box); no detail.
 * @event heed-send - The visitor sent a message: `detail: { content }`. The box then clears, unless a
 * listener cancels the event (the message cannot go out from here: the words stay).
 *
 * @csspart form - The bar.
 * @csspart input - The textarea.
 * @csspart send - The send button.
 *
 * @cssproperty --heed-input-background - Textarea background.
 */
export class HeedComposer extends HeedElement {
  static override styles = styles;

  /** "Write a message…" in the widget's language unless set (the panel sets the answer prompt) */
  @property() placeholder?: string;
  @query('textarea') private textarea!: HTMLTextAreaElement;

  override render() {
    return html`<form part="form" @submit=${this.submit}>
      <textarea part="input" rows="1" aria-label=${t.message} placeholder=${this.placeholder ?? t.writeMessage} maxlength="4000" @keydown=${this.keydown} @input=${this.input}></textarea>
      <button part="send" type="submit">${sendIcon()}<span class="sr-only">${t.send}</span></button>
    </form>`;
  }

  override focus(options?: FocusOptions) {
    this.textarea?.focus(options);
  }

  private keydown(e: KeyboardEvent) {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    this.send();
  }

  private input() {
    if (this.textarea.value.trim()) this.emit('heed-typing');
  }

  private submit(e: Event) {
    e.preventDefault();
    this.send();
  }

  private send() {
    const content = this.textarea.value;
    if (!content.trim()) return;
    if (this.emit('heed-send', { content })) this.textarea.value = '';
  }
}
