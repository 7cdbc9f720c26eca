import { HeedUnreadBadge } from './unread-badge.component.ts';
import { define } from '../shared/define.ts';

export { HeedUnreadBadge };

define('heed-unread-badge', HeedUnreadBadge);

declare global {
  interface HTMLElementTagNameMap {
    'heed-unread-badge': HeedUnreadBadge;
  }
}
