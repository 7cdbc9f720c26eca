import { html, nothing, type TemplateResult } from 'lit';
import type { SiteSummary } from '../state/contract.ts';

/** An agent's sites as an owner chooses them: every site (now and later), or the ones listed (none: no site). */
export type SiteChoice = 'all' | string[];

/** Which of the two the form shows chosen; null until the owner picks one (never assumed). */
export type SiteMode = 'all' | 'some' | null;

/**
 * The sites part of a form: "All sites" or "Only these sites" with a box per site. "All" is
 * a choice of its own, never what an empty list means. The boxes are disabled unless "Only
 * these sites" is chosen, so what is submitted is what is seen.
 * @example siteChooser({ legend: 'Sites Ana works on', id: 'edit-sites', sites, mode, checked: o.siteIds, onMode: (m) => (this.mode = m) })
 */
export function siteChooser(opts: {
  legend: string;
  /** unique on the page: names the hint the fieldset points to */
  id: string;
  sites: readonly SiteSummary[];
  mode: SiteMode;
  checked: readonly string[];
  onMode(mode: 'all' | 'some'): void;
  error?: string;
}): TemplateResult {
  const { mode, error } = opts;
  const describedBy = error ? `${opts.id}-error ${opts.id}-hint` : `${opts.id}-hint`;
  return html`<fieldset class="site-choice" aria-describedby=${describedBy}>
    <legend>${opts.legend}</legend>
    <label class="inline"
      ><input type="radio" name="sites" value="all" .checked=${mode === 'all'} @change=${() => opts.onMode('all')} /> All sites, including sites added later</label
    >
    <label class="inline"
      ><input type="radio" name="sites" value="some" .checked=${mode === 'some'} @change=${() => opts.onMode('some')} /> Only these sites:</label
    >
    <div class="site-boxes" role="group" aria-label="Chosen sites">
      ${opts.sites.map(
        (s) =>
          html`<label class="inline"
            ><input type="checkbox" name="siteId" value=${s.id} .checked=${opts.checked.includes(s.id)} ?disabled=${mode !== 'some'} /> ${s.name}</label
          >`,
      )}
    </div>
    ${error ? html`<span class="field-error" id="${opts.id}-error">${error}</span>` : nothing}
  </fieldset>
  <p id="${opts.id}-hint" class="hint">An agent sees and acts on the conversations of their sites only; with no site chosen, on none.</p>`;
}

/**
 * What a form with a `siteChooser` says: `'all'`, the checked sites (maybe none), or null
 * when neither option was picked.
 */
export function readSiteChoice(form: FormData): SiteChoice | null {
  const mode = form.get('sites');
  if (mode === 'all') return 'all';
  if (mode === 'some') return form.getAll('siteId').map(String);
  return null;
}

/** How a choice reads in a sentence: "every site", "no site", "2 sites". */
export function describeSiteChoice(choice: SiteChoice): string {
  if (choice === 'all') return 'every site';
  if (choice.length === 0) return 'no site';
  return `${choice.length} ${choice.length === 1 ? 'site' : 'sites'}`;
}
