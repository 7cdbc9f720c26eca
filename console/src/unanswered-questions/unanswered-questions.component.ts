import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { UnansweredQuestions } from '../state/contract.ts';
import { hrefOf } from '../state/route.ts';
import { exactTime } from '../state/times.ts';
import { styles } from '../knowledge-sources/knowledge-sources.styles.ts';
import { counted } from '../state/plural.ts';

/**
 * "Unanswered questions": what visitors asked that the site's knowledge had nothing for, newest
 * first, with how many in all and in the last week, so the owner adds a page or a snippet. A
 * private conversation's words stay hidden. Owners mark one handled ("Mark handled").
 */
export class HeedUnansweredQuestions extends SiteListElement {
  static override styles = styles;

  @state() private data: UnansweredQuestions | null = null;

  override render() {
    const d = this.data;
    return html`<h3 id="unanswered-h">Unanswered questions</h3>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${d === null ? html`<p class="muted">Loading…</p>` : this.list(d)}`;
  }

  private list(d: UnansweredQuestions) {
    if (d.total === 0) return html`<p class="muted">None: every question found something in the site’s knowledge.</p>`;
    return html`<p class="count">${counted(d.total, 'question')} the site’s knowledge had nothing for (${d.lastWeek} in the last 7 days). Add a page or a snippet that answers them.</p>
      <ul class="plain items" aria-labelledby="unanswered-h">
        ${d.questions.map(
          (q) => html`<li data-question=${q.id}>
            ${q.text === null ? html`<span class="muted">A question in a private conversation (words hidden)</span>` : html`<span dir="auto">“${q.text}”</span>`}
            <span class="muted">${exactTime(q.createdAt)}</span>
            <a href=${hrefOf({ view: 'transcript', conversationId: q.conversationId })}>Open conversation</a>
            ${this.isOwner ? html`<button type="button" ?disabled=${this.busy} aria-label="Mark handled: ${q.text ?? 'a private question'}" @click=${() => this.dismiss(q.id)}>Mark handled</button>` : nothing}
          </li>`,
        )}
      </ul>`;
  }

  protected async load() {
    try {
      this.data = await this.api.unansweredQuestions(this.siteId);
      this.error = null;
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private dismiss(id: string) {
    return this.change(() => this.api.dismissUnanswered(id), 'Question marked handled.');
  }
}
