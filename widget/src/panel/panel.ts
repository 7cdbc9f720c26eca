import '../sidebar/sidebar.ts';
import '../heading/heading.ts';
import '../todo-list/todo-list.ts';
import '../live-banner/live-banner.ts';
import '../message-list/message-list.ts';
import '../inbox/inbox.ts';
import '../composer/composer.ts';
import '../contact-email/contact-email.ts';
import '../rating-prompt/rating-prompt.ts';
import { HeedPanel } from './panel.component.ts';
import { define } from '../shared/define.ts';

export { HeedPanel };

define('heed-panel', HeedPanel);

declare global {
  interface HTMLElementTagNameMap {
    'heed-panel': HeedPanel;
  }
}
