import { HeedComposer } from './composer.component.ts';
import { define } from '../shared/define.ts';

export { HeedComposer };

define('heed-composer', HeedComposer);

declare global {
  interface HTMLElementTagNameMap {
    'heed-composer': HeedComposer;
  }
}
