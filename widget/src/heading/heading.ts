import { HeedHeading } from './heading.component.ts';

export { HeedHeading };

customElements.get('heed-heading') || customElements.define('heed-heading', HeedHeading);

declare global {
  interface HTMLElementTagNameMap {
    'heed-heading': HeedHeading;
  }
}
