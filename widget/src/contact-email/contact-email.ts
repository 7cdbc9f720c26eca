import { HeedContactEmail } from './contact-email.component.ts';

export { HeedContactEmail };

customElements.get('heed-contact-email') || customElements.define('heed-contact-email', HeedContactEmail);

declare global {
  interface HTMLElementTagNameMap {
    'heed-contact-email': HeedContactEmail;
  }
}
