import { HeedConsoleTeamBar } from './team-bar.component.ts';

export { HeedConsoleTeamBar };

customElements.get('heed-console-team-bar') || customElements.define('heed-console-team-bar', HeedConsoleTeamBar);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-team-bar': HeedConsoleTeamBar;
  }
}
