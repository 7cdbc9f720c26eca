import { HeedConsoleOperators } from './operators.component.ts';

export { HeedConsoleOperators };

customElements.get('heed-console-operators') || customElements.define('heed-console-operators', HeedConsoleOperators);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-operators': HeedConsoleOperators;
  }
}
