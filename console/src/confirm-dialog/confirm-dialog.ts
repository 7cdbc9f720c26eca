import { HeedConfirmDialog } from './confirm-dialog.component.ts';

export { HeedConfirmDialog };

customElements.get('heed-confirm-dialog') || customElements.define('heed-confirm-dialog', HeedConfirmDialog);

declare global {
  interface HTMLElementTagNameMap {
    'heed-confirm-dialog': HeedConfirmDialog;
  }
}
