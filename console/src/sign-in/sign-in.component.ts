import { html } from 'lit';
import { state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import { styles } from './sign-in.styles.ts';

/**
 * The sign-in form: "Email", "Password" and "Sign in". A refusal (wrong credentials, too
 * many attempts) shows under the form as an alert and keeps what was typed; the password
 * manager sees ordinary `username`/`current-password` fields.
 *
 * @event heed-signed-in - The operator is signed in (the cookie is set). `detail: { operator }`.
 */
export class HeedSignIn extends ConsoleElement {
  static override styles = styles;

  @state() private busy = false;
  @state() private error: string | null = null;

  override render() {
    return html`<main class="card">
      <h1>Sign in to Heed</h1>
      <form @submit=${this.submit} novalidate>
        <label>Email <input name="email" type="email" autocomplete="username" required autofocus /></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : null}
        <button class="primary" type="submit" ?disabled=${this.busy}>Sign in</button>
      </form>
    </main>`;
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!email || !password) {
      this.error = 'Enter your email and password.';
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      const { operator } = await this.api.signIn({ email, password });
      this.emit('heed-signed-in', { operator });
    } catch (err) {
      this.error = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }
}
