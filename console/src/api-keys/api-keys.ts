import { HeedApiKeys } from './api-keys.component.ts';

export { HeedApiKeys };

customElements.get('heed-api-keys') || customElements.define('heed-api-keys', HeedApiKeys);

declare global {
  interface HTMLElementTagNameMap {
    'heed-api-keys': HeedApiKeys;
  }
}
