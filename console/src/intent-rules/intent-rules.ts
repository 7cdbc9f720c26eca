import { HeedIntentRules } from './intent-rules.component.ts';

export { HeedIntentRules };

customElements.get('heed-intent-rules') || customElements.define('heed-intent-rules', HeedIntentRules);

declare global {
  interface HTMLElementTagNameMap {
    'heed-intent-rules': HeedIntentRules;
  }
}
