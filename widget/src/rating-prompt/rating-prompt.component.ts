import { html, nothing, type PropertyValues } from 'lit';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { rateConversation } from '../state/rate.ts';
import type { HeedStore } from '../state/store.ts';
import { styles } from './rating-prompt.styles.ts';

/** The most a comment may hold; the server counts characters, the text box UTF-16 units (stricter). */
const COMMENT_MAX = 1000;

/**
 * "Did this help?" at the end of a thread a person from the team resolved: 👍 "Helpful" and 👎
 * "Not helpful" (toggle buttons, the chosen one pressed), then an optional comment with Send.
 * A thumb is stored at once (`conversation.rate`); the comment follows it. While the
 * conversation stays resolved the visitor may change their answer. The prompt shows only what
 * the server holds: a refused or lost call says so and leaves the buttons as they were.
 *
 * @csspart rating - The prompt's box.
 */
export class HeedRatingPrompt extends HeedElement {
  static override styles = styles;
  static override properties = {
    store: { attribute: false },
    conversationId: { attribute: false },
    rating: { attribute: false },
    commenting: { state: true },
    busy: { state: true },
    failed: { state: true },
  };

  store?: HeedStore;
  conversationId = '';
  /** the rating the server holds for this resolution (the conversation view's `rating`) */
  rating: 1 | -1 | null = null;
  /** the comment box is open: the visitor chose a thumb here and has not sent a comment yet */
  private commenting = false;
  private busy = false;
  private failed = false;

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('conversationId')) this.commenting = this.busy = this.failed = false;
  }

  override render() {
    const thumb = (value: 1 | -1, icon: string, name: string) =>
      html`<button type="button" aria-pressed=${this.rating === value ? 'true' : 'false'} ?disabled=${this.busy} @click=${() => this.choose(value)}>
        <span aria-hidden="true">${icon}</span> ${name}
      </button>`;
    return html`<div class="prompt" part="rating" role="group" aria-labelledby="ask">
      <p id="ask">${t.didThisHelp}</p>
      <div class="thumbs">${thumb(1, '👍', t.helpful)}${thumb(-1, '👎', t.notHelpful)}</div>
      ${
        this.commenting
          ? html`<form @submit=${this.sendComment}>
            <label for="comment">${t.ratingComment}</label>
            <textarea id="comment" name="comment" rows="2" maxlength=${COMMENT_MAX} dir="auto"></textarea>
            <button type="submit" ?disabled=${this.busy}>${t.send}</button>
          </form>`
          : nothing
      }
      <p class="status" role="status" tabindex="-1">${this.rating !== null ? t.ratingThanks : ''}</p>
      ${this.failed ? html`<p class="error" role="alert">${t.ratingFailed}</p>` : nothing}
    </div>`;
  }

  /** A thumb: stored at once, then the comment box opens (the words are optional). */
  private async choose(value: 1 | -1) {
    if (value === this.rating) return void (this.commenting = true);
    if (await this.send(value)) this.commenting = true;
  }

  private readonly sendComment = async (e: SubmitEvent) => {
    e.preventDefault();
    const comment = new FormData(e.target as HTMLFormElement).get('comment')?.toString() ?? '';
    if (this.rating === null || !(await this.send(this.rating, comment))) return;
    // the form (and the Send button that had focus) goes: focus moves to the thanks
    this.commenting = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.status')?.focus();
  };

  private async send(value: 1 | -1, comment?: string): Promise<boolean> {
    if (!this.store || this.busy) return false;
    this.busy = true;
    this.failed = false;
    try {
      await rateConversation(this.store, this.conversationId, value, comment);
      // the view the store now holds comes back down as `rating`; until then, show what was stored
      this.rating = value;
      return true;
    } catch {
      this.failed = true;
      return false;
    } finally {
      this.busy = false;
    }
  }
}
