import { HeedMessageAttachments } from './message-attachments.component.ts';

export { HeedMessageAttachments };

customElements.get('heed-message-attachments') || customElements.define('heed-message-attachments', HeedMessageAttachments);

declare global {
  interface HTMLElementTagNameMap {
    'heed-message-attachments': HeedMessageAttachments;
  }
}
