/**
 * `/widget.js`: the tag a site adds, `<script src="https://HOST/widget.js" data-site="KEY" async>`.
 *
 * A classic script (no imports or exports of its own), so it works in any page: it reads
 * its own `data-*` options while `document.currentScript` still points at it, installs
 * the `window.Heed` command queue (keeping one a host defined before loading, like
 * Intercom's stub), and imports the first chunk from next to itself.
 *
 * Options: data-site (required), data-mode="launcher|inline", data-container (inline
 * target selector), data-position="bottom-right|bottom-left", data-locale,
 * data-document-title and data-app-badge (opt-in), data-api (API origin override).
 */
type Stub = ((...args: unknown[]) => void) & { q?: ArrayLike<unknown>[]; booted?: boolean };

(() => {
  const w = window as unknown as { Heed?: Stub };
  if (w.Heed?.booted) return; // the tag is on the page twice
  const script = document.currentScript as HTMLScriptElement | null;
  const stub: Stub =
    w.Heed ??
    function Heed(...args: unknown[]) {
      (stub.q ??= []).push(args);
    };
  stub.q ??= [];
  w.Heed = stub;
  const d = script?.dataset ?? {};
  const flag = (v: string | undefined) => v !== undefined && v !== 'false';
  const config = {
    site: d.site ?? '',
    origin: d.api ?? (script?.src ? new URL(script.src).origin : location.origin),
    mode: d.mode,
    position: d.position,
    locale: d.locale,
    container: d.container,
    documentTitle: flag(d.documentTitle),
    appBadge: flag(d.appBadge),
  };
  import('./boot.ts').then((m) => m.boot(config)).catch((err) => console.error('[heed] failed to load', err));
})();
