import { HeedConsoleApp } from './console-app.component.ts';

export { HeedConsoleApp };

customElements.get('heed-console-app') || customElements.define('heed-console-app', HeedConsoleApp);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-app': HeedConsoleApp;
  }
}
