import { HeedConsoleProfile } from './profile.component.ts';

export { HeedConsoleProfile };

customElements.get('heed-console-profile') || customElements.define('heed-console-profile', HeedConsoleProfile);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-profile': HeedConsoleProfile;
  }
}
