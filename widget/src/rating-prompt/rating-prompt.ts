import { HeedRatingPrompt } from './rating-prompt.component.ts';

export { HeedRatingPrompt };

customElements.get('heed-rating-prompt') || customElements.define('heed-rating-prompt', HeedRatingPrompt);

declare global {
  interface HTMLElementTagNameMap {
    'heed-rating-prompt': HeedRatingPrompt;
  }
}
