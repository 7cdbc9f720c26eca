/**
 * `/widget.js`: the tag a site adds, `<script src="https://HOST/widget.js" data-site="KEY" async>`.
 *
 * A classic script (no imports or exports of its own), so it works in any page: it reads
 * its own `data-*` options while `document.currentScript` still points at it, installs
 * the `window.Heed` command queue (keeping one a host defined before loading, like
 * Intercom's stub), and imports the first chunk from next to itself.
 *
 * Every URL is resolved from the script's own `src`, never from the page: a classic
 * script from another origin has no base URL for a relative `import()` ("The base URL is
 * about:blank because import() is called from a CORS-cross-origin script"), so the chunk
 * is imported by its absolute URL. Chunks are modules, fetched with CORS, and import each
 * other relative to their own URL. That also makes a path prefix work
 * (`https://cdn.example/heed/widget.js` loads `https://cdn.example/heed/widget-chunks/…`).
 *
 * Options: data-site (required), data-mode="launcher|inline", data-container (inline
 * target selector), data-position="bottom-right|bottom-left", data-locale,
 * data-document-title and data-app-badge (opt-in), data-api (API base URL when it is
 * not where the script is served from).
 */
type Stub = ((...args: unknown[]) => void) & { q?: ArrayLike<unknown>[]; booted?: boolean };

/** The first chunk's file, relative to this script; the build writes its hashed name here. */
declare const __HEED_BOOT_CHUNK__: string;

(() => {
  const w = window as unknown as { Heed?: Stub };
  if (w.Heed?.booted) return; // the tag is on the page twice
  // A tag manager that runs the script from a callback leaves currentScript null: find the tag.
  const script = (document.currentScript ?? document.querySelector('script[data-site][src*="widget"]')) as HTMLScriptElement | null;
  const stub: Stub =
    w.Heed ??
    function Heed(...args: unknown[]) {
      (stub.q ??= []).push(args);
    };
  stub.q ??= [];
  w.Heed = stub;
  const d = script?.dataset ?? {};
  const flag = (v: string | undefined) => v !== undefined && v !== 'false';
  const base = script?.src || location.href;
  const config = {
    site: d.site ?? '',
    // the API lives where the script is served from (its folder), unless data-api says otherwise
    api: new URL(d.api ? `${d.api.replace(/\/+$/, '')}/` : '.', base).href,
    mode: d.mode,
    position: d.position,
    locale: d.locale,
    container: d.container,
    documentTitle: flag(d.documentTitle),
    appBadge: flag(d.appBadge),
  };
  import(/* @vite-ignore */ new URL(__HEED_BOOT_CHUNK__, base).href)
    .then((m: { boot: (c: typeof config) => unknown }) => m.boot(config))
    .catch((err) => console.error(`[heed] failed to load the widget from ${base}`, err));
})();
