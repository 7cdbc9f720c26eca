import '../launcher/launcher.ts';
import { HeedWidget } from './widget.component.ts';

export { HeedWidget };

customElements.get('heed-widget') || customElements.define('heed-widget', HeedWidget);

declare global {
  interface HTMLElementTagNameMap {
    'heed-widget': HeedWidget;
  }
}
