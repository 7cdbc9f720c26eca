import { LitElement } from 'lit';
import { localized } from '../i18n/i18n.ts';

/**
 * The base of every Heed element: `emit()` dispatches a `heed-` event that bubbles and
 * crosses shadow roots, so a host page can listen on the outermost element. While
 * connected, an element re-renders when the widget's language changes (`useLocale`).
 *
 * @example this.emit('heed-select', { conversationId });
 */
export class HeedElement extends LitElement {
  override connectedCallback() {
    super.connectedCallback();
    localized.add(this);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    localized.delete(this);
  }

  emit<T>(name: `heed-${string}`, detail?: T): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }));
  }
}
