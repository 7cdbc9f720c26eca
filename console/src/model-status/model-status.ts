import { HeedModelStatus } from './model-status.component.ts';

export { HeedModelStatus };

customElements.get('heed-model-status') || customElements.define('heed-model-status', HeedModelStatus);

declare global {
  interface HTMLElementTagNameMap {
    'heed-model-status': HeedModelStatus;
  }
}
