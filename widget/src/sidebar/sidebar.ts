import '../conversation-row/conversation-row.ts';
import { HeedSidebar } from './sidebar.component.ts';

export { HeedSidebar };

customElements.get('heed-sidebar') || customElements.define('heed-sidebar', HeedSidebar);

declare global {
  interface HTMLElementTagNameMap {
    'heed-sidebar': HeedSidebar;
  }
}
