import { HeedMessageList } from './message-list.component.ts';

export { HeedMessageList };

customElements.get('heed-message-list') || customElements.define('heed-message-list', HeedMessageList);

declare global {
  interface HTMLElementTagNameMap {
    'heed-message-list': HeedMessageList;
  }
}
