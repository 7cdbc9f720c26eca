import { LOCALES } from './catalog.ts';
import { enCore } from './en-core.ts';
import type { Messages } from './en.ts';
import type { LocaleChoice } from './pick-locale.ts';

/**
 * The strings in use: the chosen language's file over English. A live binding, so every
 * module reads the current strings at render time. Until the panel's chunk adds the rest
 * of English (`panel-strings.ts`), only `en-core.ts`'s keys are filled: modules outside the
 * panel read only those.
 *
 * Hand-made rather than `@lit/localize`: its runtime alone measured 1,527 bytes gzip
 * (minified, lit external), while all of this (this module, the catalogue, the locale
 * choice, the English in `en-core.ts` and the base class's hook) grew the first chunk by
 * ~750 bytes gzip (12,835 → 13,591, measured).
 *
 * @example html`<button>${t.send}</button>`
 */
export let t = enCore as Messages;

/** The tag `Intl` formats dates and relative times in (`en` by default). */
export let lang = 'en';

/** The strings' file in use (`en`, or a file's name in `locales/`): lazily loaded strings follow it (attach/strings.ts). */
export let bundle = 'en';

/** The elements on screen, re-rendered when the strings change (HeedElement adds itself). */
export const localized = new Set<{ requestUpdate(): void }>();

let english: Partial<Messages> = enCore;
let translated: Partial<Messages> = {};
let latest: LocaleChoice | undefined;

function apply() {
  t = { ...english, ...translated } as Messages;
  for (const el of localized) el.requestUpdate();
}

/** Completes English with the panel's strings (`panel-strings.ts` calls it as its chunk loads). */
export function addEnglish(all: Messages): void {
  english = all;
  apply();
}

/**
 * Switches the widget's language: loads the bundle's file (its own chunk) unless it is
 * English, then swaps `t` and `lang` and re-renders every Heed element. When a newer choice
 * came in meanwhile, the older one is dropped; when the file fails to load, the strings
 * stay as they are.
 *
 * @example await useLocale(pickLocale([widget.locale, ...navigator.languages], Object.keys(LOCALES)));
 */
export async function useLocale(choice: LocaleChoice): Promise<void> {
  latest = choice;
  let strings: Partial<Messages> = {};
  try {
    strings = (await LOCALES[choice.bundle]?.()) ?? {};
  } catch (err) {
    console.error(`[heed] could not load the "${choice.bundle}" strings`, err);
    return;
  }
  if (latest !== choice) return;
  translated = strings;
  lang = choice.tag;
  bundle = choice.bundle;
  apply();
}
