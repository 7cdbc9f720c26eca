import { HeedConsoleVisitorProfile } from './visitor-profile.component.ts';

export { HeedConsoleVisitorProfile };

customElements.get('heed-visitor-profile') || customElements.define('heed-visitor-profile', HeedConsoleVisitorProfile);

declare global {
  interface HTMLElementTagNameMap {
    'heed-visitor-profile': HeedConsoleVisitorProfile;
  }
}
