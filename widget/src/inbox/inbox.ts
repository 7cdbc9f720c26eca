import { HeedInbox } from './inbox.component.ts';

export { HeedInbox };

customElements.get('heed-inbox') || customElements.define('heed-inbox', HeedInbox);

declare global {
  interface HTMLElementTagNameMap {
    'heed-inbox': HeedInbox;
  }
}
