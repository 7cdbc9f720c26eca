import { HeedInbox } from './inbox.component.ts';
import { define } from '../shared/define.ts';

export { HeedInbox };

define('heed-inbox', HeedInbox);

declare global {
  interface HTMLElementTagNameMap {
    'heed-inbox': HeedInbox;
  }
}
