import { HeedCannedReplies } from './canned-replies.component.ts';

export { HeedCannedReplies };

customElements.get('heed-canned-replies') || customElements.define('heed-canned-replies', HeedCannedReplies);

declare global {
  interface HTMLElementTagNameMap {
    'heed-canned-replies': HeedCannedReplies;
  }
}
