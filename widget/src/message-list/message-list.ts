import { HeedMessageList } from './message-list.component.ts';
import { define } from '../shared/define.ts';

export { HeedMessageList };

define('heed-message-list', HeedMessageList);

declare global {
  interface HTMLElementTagNameMap {
    'heed-message-list': HeedMessageList;
  }
}
