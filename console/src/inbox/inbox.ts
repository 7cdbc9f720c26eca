import { HeedConsoleInbox } from './inbox.component.ts';

export { HeedConsoleInbox };

customElements.get('heed-console-inbox') || customElements.define('heed-console-inbox', HeedConsoleInbox);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-inbox': HeedConsoleInbox;
  }
}
