import { LitElement } from 'lit';

/**
 * The base of every Heed element: `emit()` dispatches a `heed-` event that bubbles and
 * crosses shadow roots, so a host page can listen on the outermost element.
 *
 * @example this.emit('heed-select', { conversationId });
 */
export class HeedElement extends LitElement {
  emit<T>(name: `heed-${string}`, detail?: T): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }));
  }
}
