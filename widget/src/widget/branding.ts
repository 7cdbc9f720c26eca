import type { HeedStore } from '../state/store.ts';
import type { SiteBranding } from '../state/types.ts';
import type { HeedWidget } from './widget.component.ts';

type Look = Pick<SiteBranding, 'accentColor' | 'launcherPosition'>;

/**
 * The site's accent colour and launcher side (set in the console) on the widget element.
 * The accent goes into a private custom property that the styles read only after the
 * host's own: `var(--heed-accent, var(--_site-accent, …))`, so a host page that themes Heed
 * keeps its colour. An explicit `data-position` beats the site's side. The last look is
 * kept in localStorage under `key`, so a returning visitor's launcher never flashes the
 * default colour before the session answers.
 */
export function followBranding(store: HeedStore, widget: HeedWidget, opts: { key: string; positionFixed: boolean }): void {
  const apply = (look: Look) => {
    if (look.accentColor && /^#[0-9a-f]{6}$/i.test(look.accentColor)) {
      widget.style.setProperty('--_site-accent', look.accentColor);
      widget.style.setProperty('--_site-accent-contrast', readableOn(look.accentColor));
    }
    if (!opts.positionFixed && look.launcherPosition) widget.position = look.launcherPosition;
  };
  apply(remembered(opts.key));
  let last: SiteBranding | null = null;
  store.subscribe(({ site }) => {
    if (!site || site === last) return;
    last = site;
    apply(site);
    try {
      localStorage.setItem(opts.key, JSON.stringify({ accentColor: site.accentColor, launcherPosition: site.launcherPosition }));
    } catch {
      // storage refused: the next load shows the default colour until the session answers
    }
  });
}

function remembered(key: string): Look {
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    const side = raw.launcherPosition;
    return {
      accentColor: typeof raw.accentColor === 'string' ? raw.accentColor : null,
      launcherPosition: side === 'bottom-left' || side === 'bottom-right' ? side : undefined,
    };
  } catch {
    return {};
  }
}

/**
 * White or near-black text on `hex`, whichever contrasts more (WCAG relative luminance):
 * a site's pale yellow accent gets dark icons, a navy one white.
 */
export function readableOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#fff' : '#1f2328';
}
