import { HeedConversationRow } from './conversation-row.component.ts';

export { HeedConversationRow };

customElements.get('heed-conversation-row') || customElements.define('heed-conversation-row', HeedConversationRow);

declare global {
  interface HTMLElementTagNameMap {
    'heed-conversation-row': HeedConversationRow;
  }
}
