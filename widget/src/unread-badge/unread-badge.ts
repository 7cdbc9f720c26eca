import { HeedUnreadBadge } from './unread-badge.component.ts';

export { HeedUnreadBadge };

customElements.get('heed-unread-badge') || customElements.define('heed-unread-badge', HeedUnreadBadge);

declare global {
  interface HTMLElementTagNameMap {
    'heed-unread-badge': HeedUnreadBadge;
  }
}
