import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import { styles } from '../sign-in/sign-in.styles.ts';

/**
 * Accepting an invitation (`/admin/#/invite/<token>`): the invited operator picks a name and
 * a password and is signed in. The token comes from the URL's hash and goes only into the
 * request body.
 *
 * @event heed-signed-in - The invitation is accepted and the operator signed in. `detail: { operator }`.
 */
export class HeedAcceptInvite extends ConsoleElement {
  static override styles = styles;

  @property() token = '';
  @state() private busy = false;
  @state() private error: string | null = null;
  @state() private fields: Record<string, string> = {};

  override render() {
    const f = this.fields;
    return html`<main class="card">
      <h1>Join the Heed console</h1>
      <form @submit=${this.submit} novalidate>
        <label>Your name <input name="name" autocomplete="name" required aria-invalid=${f.name ? 'true' : 'false'} />
          ${f.name ? html`<span class="field-error">${f.name}</span>` : null}</label>
        <label>New password <input name="password" type="password" autocomplete="new-password" required
            aria-invalid=${f.password ? 'true' : 'false'} />
          ${f.password ? html`<span class="field-error">${f.password}</span>` : null}</label>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : null}
        <button class="primary" type="submit" ?disabled=${this.busy}>Accept invitation</button>
      </form>
    </main>`;
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const name = String(form.get('name') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const fields: Record<string, string> = {};
    if (!name) fields.name = 'Enter your name.';
    if (!password) fields.password = 'Choose a password.';
    this.fields = fields;
    if (Object.keys(fields).length > 0) {
      this.error = 'Some fields need a change.';
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      const { operator } = await this.api.acceptInvite({ token: this.token, name, password });
      this.emit('heed-signed-in', { operator });
    } catch (err) {
      const text = this.failed(err);
      this.fields = text.fields;
      this.error = text.signedOut ? 'This invitation link is not valid any more. Ask for a new one.' : text.message;
    } finally {
      this.busy = false;
    }
  }
}
