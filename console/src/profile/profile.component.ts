import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import '../alert-settings/alert-settings.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import { styles } from './profile.styles.ts';

/**
 * "Your profile": the signed-in operator's own name (what visitors see beside their replies),
 * password (given the current one; their other browsers are signed out), their alerts
 * (`heed-alert-settings`) and "Sign out everywhere". Any role.
 *
 * @event heed-renamed - The operator's name changed. `detail: { name }`.
 * @event heed-signed-out - After "Sign out everywhere".
 */
export class HeedConsoleProfile extends ConsoleElement {
  static override styles = styles;

  @state() private busy = false;
  @state() private error: string | null = null;
  @state() private fields: Record<string, string | undefined> = {};

  override render() {
    const f = this.fields;
    return html`<h1>Your profile</h1>
      <p class="muted">${this.me?.email} · ${roleText(this.me?.role)}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <form @submit=${this.rename} novalidate aria-labelledby="name-h">
        <h2 id="name-h">Name</h2>
        ${this.field('profile-name', 'name', 'Your name', 'text', 'name', this.me?.name ?? '', f.name ?? 'Visitors see it beside your replies.')}
        <button type="submit" class="primary" ?disabled=${this.busy}>Save name</button>
      </form>
      <form @submit=${this.changePassword} novalidate aria-labelledby="password-h">
        <h2 id="password-h">Password</h2>
        ${this.field('current-password', 'current', 'Current password', 'password', 'current-password', '', f.current)}
        ${this.field('new-password', 'next', 'New password', 'password', 'new-password', '', f.next ?? 'At least 12 characters. Your other browsers are signed out.')}
        <button type="submit" class="primary" ?disabled=${this.busy}>Change password</button>
      </form>
      <heed-alert-settings .api=${this.api} .me=${this.me}></heed-alert-settings>
      <section aria-labelledby="sessions-h">
        <h2 id="sessions-h">Sessions</h2>
        <p>Signed in on a computer you no longer use, or lost a phone? End every session of yours, this one too.</p>
        <button type="button" class="danger" ?disabled=${this.busy} @click=${this.everywhere}>Sign out everywhere</button>
      </section>`;
  }

  private field(id: string, name: string, label: string, type: string, autocomplete: string, value: string, note?: string) {
    const invalid = this.fields[name] !== undefined;
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <input id=${id} name=${name} type=${type} autocomplete=${autocomplete} .value=${value}
        aria-invalid=${invalid ? 'true' : 'false'} aria-describedby=${note ? `${id}-note` : nothing} />
      ${note ? html`<span id="${id}-note" class=${invalid ? 'field-error' : 'hint'}>${note}</span>` : nothing}
    </div>`;
  }

  private async rename(e: SubmitEvent) {
    e.preventDefault();
    const name = String(new FormData(e.target as HTMLFormElement).get('name') ?? '').trim();
    if (!name) return this.flag({ name: 'Write your name.' });
    const saved = await this.run(() => this.api.renameSelf(name), 'Name saved.');
    if (saved) this.emit('heed-renamed', { name: saved.name });
  }

  private async changePassword(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const current = String(data.get('current') ?? '');
    const next = String(data.get('next') ?? '');
    if (!current) return this.flag({ current: 'Write your current password.' });
    if (next.length < 12) return this.flag({ next: 'At least 12 characters.' });
    if (await this.run(() => this.api.changePassword(current, next), 'Password changed. Your other browsers are signed out.')) form.reset();
  }

  private async everywhere() {
    if (await this.run(() => this.api.signOutEverywhere(), 'Signed out everywhere.')) this.emit('heed-signed-out', {});
  }

  /** One change; a refusal about a field goes beside it, anything else above the forms. */
  private async run<T>(change: () => Promise<T>, done: string): Promise<T | null> {
    this.busy = true;
    this.error = null;
    this.fields = {};
    try {
      const result = await change();
      this.announce(done);
      return result;
    } catch (err) {
      const failure = this.failed(err);
      if (failure.reason === 'wrong_password') await this.flag({ current: failure.message });
      else if (Object.keys(failure.fields).length) await this.flag(failure.fields);
      else this.error = failure.message;
      return null;
    } finally {
      this.busy = false;
    }
  }

  private async flag(fields: Record<string, string>) {
    this.fields = fields;
    await this.focusFirstInvalid();
  }
}

/** What the operator's role lets them do, in a line. */
const roleText = (role: string | undefined) =>
  role === 'owner' ? 'Owner: sites, operators and every conversation' : 'Agent: the conversations of your sites';
