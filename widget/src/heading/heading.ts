import { HeedHeading } from './heading.component.ts';
import { define } from '../shared/define.ts';

export { HeedHeading };

define('heed-heading', HeedHeading);

declare global {
  interface HTMLElementTagNameMap {
    'heed-heading': HeedHeading;
  }
}
