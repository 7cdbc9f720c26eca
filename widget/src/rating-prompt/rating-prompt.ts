import { HeedRatingPrompt } from './rating-prompt.component.ts';
import { define } from '../shared/define.ts';

export { HeedRatingPrompt };

define('heed-rating-prompt', HeedRatingPrompt);

declare global {
  interface HTMLElementTagNameMap {
    'heed-rating-prompt': HeedRatingPrompt;
  }
}
