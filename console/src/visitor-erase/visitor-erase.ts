import { HeedVisitorErase } from './visitor-erase.component.ts';

export { HeedVisitorErase };

customElements.get('heed-visitor-erase') || customElements.define('heed-visitor-erase', HeedVisitorErase);

declare global {
  interface HTMLElementTagNameMap {
    'heed-visitor-erase': HeedVisitorErase;
  }
}
