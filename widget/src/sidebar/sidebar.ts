import '../conversation-row/conversation-row.ts';
import { HeedSidebar } from './sidebar.component.ts';
import { define } from '../shared/define.ts';

export { HeedSidebar };

define('heed-sidebar', HeedSidebar);

declare global {
  interface HTMLElementTagNameMap {
    'heed-sidebar': HeedSidebar;
  }
}
