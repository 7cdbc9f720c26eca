import { HeedAlertSettings } from './alert-settings.component.ts';

export { HeedAlertSettings };

customElements.get('heed-alert-settings') || customElements.define('heed-alert-settings', HeedAlertSettings);

declare global {
  interface HTMLElementTagNameMap {
    'heed-alert-settings': HeedAlertSettings;
  }
}
