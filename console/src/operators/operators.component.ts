import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { OperatorRow, SiteSummary } from '../state/contract.ts';
import { styles } from './operators.styles.ts';
import { describeSiteChoice, readSiteChoice, siteChooser, type SiteMode } from './site-chooser.ts';
import { ROLE_LABELS } from './roles.ts';

/**
 * The console's operators: who they are, their role (with what it may do), whether their
 * invitation is still pending, and the sites they work on. Owners invite (the server emails
 * the link when it sends email, and says so; either way the link is shown once, to pass on by
 * hand when email is off), remove (never themselves; the server also keeps the last owner), and choose an
 * agent's sites when inviting and with "Change sites": all sites (an explicit choice) or the
 * ones checked, none meaning no site; owners act on every site.
 */
export class HeedConsoleOperators extends ConsoleElement {
  static override styles = styles;

  @state() private operators: OperatorRow[] | null = null;
  @state() private error: string | null = null;
  @state() private fields: Record<string, string> = {};
  /** the invitation just made: its link (shown once) and whether the server emails it */
  @state() private invited: { email: string; url: string; emailed: boolean } | null = null;
  @state() private busy = false;
  @state() private sites: SiteSummary[] = [];
  /** the agent whose sites the form below the table edits */
  @state() private choosing: OperatorRow | null = null;
  @state() private sitesError: string | null = null;
  /** the choice shown in the sites form */
  @state() private editMode: SiteMode = null;
  /** the role and sites choice of the invite form (sites are asked of agents only) */
  @state() private inviteRole: 'agent' | 'owner' = 'agent';
  @state() private inviteMode: SiteMode = null;

  override connectedCallback() {
    super.connectedCallback();
    this.emit('heed-title', { title: null });
    void this.load();
    void this.api
      .sites()
      .then((s) => (this.sites = s))
      .catch((err) => (this.error = this.failed(err).message));
  }

  override render() {
    const f = this.fields;
    return html`<h1>Operators</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.operators === null
          ? html`<p class="muted">Loading…</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Operators table"><table>
            <thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Status</th><th>Sites</th>${this.isOwner ? html`<th><span class="sr-only">Actions</span></th>` : nothing}</tr></thead>
            <tbody>${this.operators.map(
              (o) => html`<tr>
                <td>${o.name ?? '—'}</td>
                <td>${o.email}</td>
                <td>${ROLE_LABELS[o.role]}</td>
                <td>${o.pending ? 'Invited' : 'Active'}</td>
                <td class="sites">${this.sitesOf(o)}</td>
                ${
                  this.isOwner
                    ? html`<td class="row-actions">
                      ${o.role === 'agent' ? html`<button type="button" aria-label="Change sites of ${o.email}" @click=${() => this.chooseSites(o)}>Change sites</button>` : nothing}
                      ${o.id === this.me?.id ? html`<span class="muted">You</span>` : html`<button type="button" class="danger" aria-label="Remove ${o.email}" @click=${() => this.removeOperator(o)}>Remove</button>`}
                    </td>`
                    : nothing
                }
              </tr>`,
            )}</tbody>
          </table></div>`
      }
      ${this.choosing ? this.sitesForm(this.choosing) : nothing}
      ${
        this.isOwner
          ? html`<section aria-labelledby="invite-h">
            <h2 id="invite-h">Invite an operator</h2>
            <form @submit=${this.invite} novalidate>
              <label>Email <input name="email" type="email" autocomplete="off" required aria-invalid=${f.email ? 'true' : 'false'} />
                ${f.email ? html`<span class="field-error">${f.email}</span>` : nothing}</label>
              <label>Name <input name="name" autocomplete="off" required aria-invalid=${f.name ? 'true' : 'false'} />
                ${f.name ? html`<span class="field-error">${f.name}</span>` : nothing}</label>
              <label>Role
                <select name="role" @change=${(e: Event) => (this.inviteRole = (e.target as HTMLSelectElement).value === 'owner' ? 'owner' : 'agent')}>
                  <option value="agent">${ROLE_LABELS.agent}</option><option value="owner">${ROLE_LABELS.owner}</option>
                </select>
              </label>
              ${
                this.inviteRole === 'agent'
                  ? siteChooser({
                      legend: 'Sites they work on',
                      id: 'invite-sites',
                      sites: this.sites,
                      mode: this.inviteMode,
                      checked: [],
                      onMode: (m) => (this.inviteMode = m),
                      error: f.sites,
                    })
                  : nothing
              }
              <button type="submit" class="primary" ?disabled=${this.busy}>Invite</button>
            </form>
            ${
              this.invited
                ? html`<div class="invite" role="group" aria-label="Invitation link">
                  ${
                    this.invited.emailed
                      ? html`<p><strong>Invitation emailed to ${this.invited.email}.</strong></p>
                        <p>The link also works from here: it is shown only once and works for 7 days.</p>`
                      : html`<p><strong>Email is off on this server: copy the link and send it yourself.</strong></p>
                        <p>It is shown only once and works for 7 days.</p>`
                  }
                  <pre>${this.invited.url}</pre>
                  <button type="button" @click=${this.copyInvite}>Copy link</button>
                </div>`
                : nothing
            }
          </section>`
          : nothing
      }`;
  }

  private sitesOf(o: OperatorRow) {
    if (o.role === 'owner') return 'Every site (owner)';
    if (o.allSites) return 'All sites';
    if (o.siteIds.length === 0) return 'No site';
    const names = new Map(this.sites.map((s) => [s.id, s.name]));
    return o.siteIds.map((id) => names.get(id) ?? 'a deleted site').join(', ');
  }

  private sitesForm(o: OperatorRow) {
    const who = o.name || o.email;
    return html`<form class="sites-form card" @submit=${this.saveSites} aria-labelledby="sites-h">
      <h2 id="sites-h">Sites of ${who}</h2>
      ${siteChooser({ legend: `Sites ${who} works on`, id: 'edit-sites', sites: this.sites, mode: this.editMode, checked: o.siteIds, onMode: (m) => (this.editMode = m) })}
      ${this.sitesError ? html`<p class="error" role="alert">${this.sitesError}</p>` : nothing}
      <div class="row-actions">
        <button type="submit" class="primary" ?disabled=${this.busy}>Save sites</button>
        <button type="button" @click=${this.closeSites}>Cancel</button>
      </div>
    </form>`;
  }

  private async chooseSites(o: OperatorRow) {
    this.choosing = o;
    this.editMode = o.allSites ? 'all' : 'some';
    this.sitesError = null;
    await this.updateComplete;
    const form = this.renderRoot.querySelector('.sites-form');
    (form?.querySelector<HTMLInputElement>('input[name=sites]:checked') ?? form?.querySelector<HTMLInputElement>('input'))?.focus();
  }

  private async closeSites() {
    const o = this.choosing;
    this.choosing = null;
    await this.updateComplete;
    if (o) this.renderRoot.querySelector<HTMLElement>(`button[aria-label="Change sites of ${CSS.escape(o.email)}"]`)?.focus();
  }

  private async saveSites(e: SubmitEvent) {
    e.preventDefault();
    const o = this.choosing;
    if (!o) return;
    const sites = readSiteChoice(new FormData(e.target as HTMLFormElement));
    if (!sites) return;
    this.busy = true;
    this.sitesError = null;
    try {
      await this.api.setOperatorSites(o.id, sites);
      this.announce(`${o.name || o.email} now works on ${describeSiteChoice(sites)}.`);
      await this.load();
      await this.closeSites();
    } catch (err) {
      this.sitesError = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }

  private async load() {
    try {
      this.operators = await this.api.operators();
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async invite(e: SubmitEvent) {
    e.preventDefault();
    const formEl = e.target as HTMLFormElement;
    const form = new FormData(formEl);
    const email = String(form.get('email') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    const role = form.get('role') === 'owner' ? 'owner' : 'agent';
    const sites = role === 'owner' ? [] : readSiteChoice(form);
    const fields: Record<string, string> = {};
    if (!email.includes('@')) fields.email = 'Enter an email address.';
    if (!name) fields.name = 'Enter a name.';
    if (!sites) fields.sites = 'Choose all sites, or the sites this agent works on.';
    this.fields = fields;
    if (!sites || Object.keys(fields).length > 0) return;
    this.busy = true;
    this.error = null;
    try {
      const { inviteUrl, emailed } = await this.api.invite({ email, name, role, sites });
      this.invited = { email, url: inviteUrl, emailed };
      formEl.reset();
      this.inviteRole = 'agent';
      this.inviteMode = null;
      this.announce(emailed ? `Invitation emailed to ${email}.` : `Invitation for ${email} created. Email is off: copy the link now.`);
      await this.load();
    } catch (err) {
      const text = this.failed(err);
      this.fields = text.fields;
      this.error = text.message;
    } finally {
      this.busy = false;
    }
  }

  private async removeOperator(o: OperatorRow) {
    if (!confirm(`Remove ${o.email}? Their sessions end at once.`)) return;
    try {
      await this.api.removeOperator(o.id);
      this.announce(`${o.email} removed.`);
      await this.load();
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async copyInvite() {
    try {
      await navigator.clipboard.writeText(this.invited?.url ?? '');
      this.announce('Link copied.');
    } catch {
      this.announce('Copying is blocked here: select the link and press Control+C.');
    }
  }
}
