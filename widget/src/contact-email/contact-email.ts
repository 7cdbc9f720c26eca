import { HeedContactEmail } from './contact-email.component.ts';
import { define } from '../shared/define.ts';

export { HeedContactEmail };

define('heed-contact-email', HeedContactEmail);

declare global {
  interface HTMLElementTagNameMap {
    'heed-contact-email': HeedContactEmail;
  }
}
