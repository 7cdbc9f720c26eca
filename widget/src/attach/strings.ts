/// <reference types="vite/client" />
import { bundle, localized } from '../i18n/i18n.ts';
import { en, type AttachMessages } from './en.ts';

/** One lazy chunk per language (`widget-chunks/attach-locale-de-….js`), as `i18n/catalog.ts` does for the panel's strings. */
const files = import.meta.glob<{ default: AttachMessages }>('./locales/*.ts');

let strings: AttachMessages = en;
/** the language whose strings are in `strings`, or are on their way */
let wanted = 'en';
let loading: Promise<void> = Promise.resolve();

/** Loads a language's strings of attachments (English when it has none) and re-renders every element. */
async function load(name: string): Promise<void> {
  wanted = name;
  let next = en;
  try {
    next = (await files[`./locales/${name}.ts`]?.())?.default ?? en;
  } catch (err) {
    console.error(`[heed] could not load the "${name}" strings of attachments`, err);
  }
  if (wanted !== name) return;
  strings = next;
  for (const el of localized) el.requestUpdate();
}

/**
 * The strings of attachments in the widget's language. Read at render time: when the language
 * changed since (`useLocale`), the new language's file starts loading and every element renders
 * again once it is in; until then the previous strings show.
 *
 * @example html`<button>${at().remove(name)}</button>`
 */
export function at(): AttachMessages {
  void stringsReady();
  return strings;
}

/** Resolves once the strings of the widget's current language are in (the chunk waits for them before its first render). */
export function stringsReady(): Promise<void> {
  if (bundle !== wanted) loading = load(bundle);
  return loading;
}
