import { html, nothing } from 'lit';
import { t } from '../i18n/panel-strings.ts';
import { HeedElement } from '../shared/heed-element.ts';
import type { HeedStore } from '../state/store.ts';
import { addressGiven, rememberContact } from './contact-choice.ts';
import { styles } from './contact-email.styles.ts';

/** What the form takes for an address: something@something.something, as the server's check. */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The offer to hear back by email, under a thread where a person is to reply: "Leave your email
 * to hear back if you leave this page", an email field with its visible label, "Email me" and
 * "No thanks". The address goes to the server with the page the visitor is on (the email's
 * link leads back there, `session.contactEmail`); once stored, the form gives way to "We will
 * email … when someone replies", which takes focus so it is read out. An address that does not
 * look like one, or a refusal, is said next to the field (`aria-invalid`, the error named by
 * `aria-describedby`). The panel decides when it shows (contact-choice.ts).
 *
 * @event heed-contact-skip - The visitor said no thanks: the panel hides the offer and focuses the composer.
 *
 * @csspart contact-email - The offer's box.
 */
export class HeedContactEmail extends HeedElement {
  static override styles = styles;
  static override properties = {
    store: { attribute: false },
    error: { state: true },
    busy: { state: true },
  };

  store?: HeedStore;
  private error: string | null = null;
  private busy = false;

  override render() {
    const saved = this.store ? addressGiven(this.store) : null;
    if (saved) return html`<p class="box saved" part="contact-email" role="status" tabindex="-1">${t.contactSaved(saved)}</p>`;
    return html`<form class="box" part="contact-email" aria-labelledby="offer" novalidate @submit=${this.submit}>
      <p id="offer">${t.contactPrompt}</p>
      <label for="email">${t.contactLabel}</label>
      <div class="row">
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          inputmode="email"
          maxlength="320"
          required
          aria-invalid=${this.error ? 'true' : 'false'}
          aria-describedby=${this.error ? 'error' : nothing}
        />
        <button type="submit" class="save" ?disabled=${this.busy}>${t.contactSave}</button>
        <button type="button" class="skip" @click=${this.skip}>${t.contactSkip}</button>
      </div>
      ${this.error ? html`<p id="error" class="error" role="alert">${this.error}</p>` : nothing}
    </form>`;
  }

  private readonly submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#email')!;
    const email = input.value.trim();
    if (!LOOKS_LIKE_EMAIL.test(email)) {
      this.error = t.contactInvalid;
      return input.focus();
    }
    const store = this.store;
    if (!store || this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      await store.api.setContactEmail(email, location.href);
      rememberContact(store, 'given', email);
      this.requestUpdate();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.saved')?.focus();
    } catch {
      this.error = t.contactFailed;
    } finally {
      this.busy = false;
    }
  };

  private readonly skip = () => {
    if (this.store) rememberContact(this.store, 'skipped');
    this.emit('heed-contact-skip');
  };
}
