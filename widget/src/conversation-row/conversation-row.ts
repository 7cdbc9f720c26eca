import { HeedConversationRow } from './conversation-row.component.ts';
import { define } from '../shared/define.ts';

export { HeedConversationRow };

define('heed-conversation-row', HeedConversationRow);

declare global {
  interface HTMLElementTagNameMap {
    'heed-conversation-row': HeedConversationRow;
  }
}
