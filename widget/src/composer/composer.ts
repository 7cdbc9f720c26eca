import { HeedComposer } from './composer.component.ts';

export { HeedComposer };

customElements.get('heed-composer') || customElements.define('heed-composer', HeedComposer);

declare global {
  interface HTMLElementTagNameMap {
    'heed-composer': HeedComposer;
  }
}
