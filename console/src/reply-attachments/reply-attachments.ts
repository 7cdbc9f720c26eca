import { HeedReplyAttachments } from './reply-attachments.component.ts';

export { HeedReplyAttachments };

customElements.get('heed-reply-attachments') || customElements.define('heed-reply-attachments', HeedReplyAttachments);

declare global {
  interface HTMLElementTagNameMap {
    'heed-reply-attachments': HeedReplyAttachments;
  }
}
