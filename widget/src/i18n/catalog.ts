/// <reference types="vite/client" />
import type { Messages } from './en.ts';

/**
 * Every language besides English, from the files in `locales/`: adding `locales/it.ts` is
 * all it takes. Vite turns the glob into one lazy chunk per file (`widget-chunks/locale-de-….js`),
 * fetched only for a visitor who needs it; the component tests' dev server expands the
 * same glob (web-test-runner.config.mjs).
 */
const files = import.meta.glob<{ default: Messages }>('./locales/*.ts');

/**
 * The loaders by lower-case language tag (`de`, `pt`, `ar`…), the file name without `.ts`.
 * @example await LOCALES.de?.() // the German strings
 */
export const LOCALES: Record<string, () => Promise<Messages>> = Object.fromEntries(
  Object.entries(files).map(([path, load]) => [path.slice(10, -3), () => load().then((m) => m.default)]),
);
