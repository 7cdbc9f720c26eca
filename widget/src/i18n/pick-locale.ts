/** The language the widget speaks, and how Intl and the layout follow it. */
export interface LocaleChoice {
  /** the strings to use: `en` or a file in `locales/` */
  bundle: string;
  /** the visitor's full tag for `Intl` dates and times (`pt-BR` with the `pt` strings) */
  tag: string;
  dir: 'ltr' | 'rtl';
}

/** Languages written right to left (by primary subtag), so a file added for one mirrors the widget. */
const RTL = /^(ar|he|fa|ur|ps|yi|dv|ug|ckb|sd)$/;

/**
 * The first tag in `wanted` (the `data-locale` option, then `navigator.languages`) that a
 * bundle exists for, trying each without its last subtag too (`pt-BR` → `pt`,
 * `zh-Hant-TW` → `zh-Hant` → `zh`); English when none has one. Invalid tags are skipped.
 *
 * @example pickLocale(['pt-BR'], ['de', 'pt']) // { bundle: 'pt', tag: 'pt-BR', dir: 'ltr' }
 */
export function pickLocale(wanted: readonly (string | null | undefined)[], available: readonly string[]): LocaleChoice {
  for (const raw of wanted) {
    let tag: string | undefined;
    try {
      tag = raw ? Intl.getCanonicalLocales(raw)[0] : undefined; // also maps legacy codes: iw → he
    } catch {
      // not a language tag
    }
    if (!tag) continue;
    const parts = tag.toLowerCase().split('-');
    for (let i = parts.length; i > 0; i--) {
      const bundle = parts.slice(0, i).join('-');
      if (bundle === 'en' || available.includes(bundle)) return { bundle, tag, dir: RTL.test(parts[0]!) ? 'rtl' : 'ltr' };
    }
  }
  return { bundle: 'en', tag: 'en', dir: 'ltr' };
}
