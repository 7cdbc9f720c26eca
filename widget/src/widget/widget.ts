import '../launcher/launcher.ts';
import { HeedWidget } from './widget.component.ts';
import { define } from '../shared/define.ts';

export { HeedWidget };

define('heed-widget', HeedWidget);

declare global {
  interface HTMLElementTagNameMap {
    'heed-widget': HeedWidget;
  }
}
