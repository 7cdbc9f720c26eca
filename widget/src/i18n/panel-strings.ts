import { en } from './en.ts';
import { addEnglish } from './i18n.ts';

/**
 * What the panel's elements import `t` from: importing it adds the rest of English to the
 * strings, so English is complete wherever a panel element renders (in its chunk, or in a
 * test that imports one element).
 *
 * @example import { t } from '../i18n/panel-strings.ts';
 */
addEnglish(en);

export { t } from './i18n.ts';
