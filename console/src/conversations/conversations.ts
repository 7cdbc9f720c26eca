import { HeedConsoleConversations } from './conversations.component.ts';

export { HeedConsoleConversations };

customElements.get('heed-console-conversations') || customElements.define('heed-console-conversations', HeedConsoleConversations);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-conversations': HeedConsoleConversations;
  }
}
