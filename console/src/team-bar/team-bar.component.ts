import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ConversationItem, OperatorRow, StatusChange } from '../state/contract.ts';
import { snoozeChoices } from '../state/snooze.ts';
import { exactTime } from '../state/times.ts';
import { styles } from './team-bar.styles.ts';

/** The operators a conversation of `siteId` may be given: signed up, and answering that site. */
export const assignable = (operators: readonly OperatorRow[], siteId: string) =>
  operators.filter((o) => !o.pending && (o.role === 'owner' || o.allSites || o.siteIds.includes(siteId)));

/**
 * The team's side of one conversation: whose it is ("Assigned to": you, a colleague of its
 * site, or nobody) and where it stands (open; resolved, reopened by the visitor's next
 * message; snoozed until a time). Each change is announced and asks the transcript to reload.
 *
 * @event heed-conversation-changed - Assigned or its status changed.
 */
export class HeedConsoleTeamBar extends ConsoleElement {
  static override styles = styles;

  @property({ attribute: false }) conversation!: ConversationItem;
  @state() private operators: OperatorRow[] = [];
  @state() private busy = false;
  @state() private error: string | null = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.api
      .operators()
      .then((o) => (this.operators = o))
      .catch((err) => this.failed(err));
  }

  override render() {
    const c = this.conversation;
    const people = assignable(this.operators, c.siteId).filter((o) => o.id !== this.me?.id);
    return html`<div class="bar">
        <label>Assigned to
          <select ?disabled=${this.busy} @change=${this.assign}>
            <option value="" ?selected=${c.assignee === null}>Nobody</option>
            ${this.me ? html`<option value=${this.me.id} ?selected=${c.assignee?.id === this.me.id}>You (${this.me.name || this.me.email})</option>` : nothing}
            ${people.map((o) => html`<option value=${o.id} ?selected=${c.assignee?.id === o.id}>${o.name || o.email}</option>`)}
            ${
              c.assignee && !people.some((o) => o.id === c.assignee!.id) && c.assignee.id !== this.me?.id
                ? html`<option value=${c.assignee.id} selected>${c.assignee.name}</option>`
                : nothing
            }
          </select>
        </label>
        <p class="status" data-status=${c.status}>${this.statusText(c)}</p>
        ${c.status === 'open' ? this.openActions() : html`<button type="button" ?disabled=${this.busy} @click=${() => this.setStatus({ status: 'open' }, 'Reopened.')}>Reopen</button>`}
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}`;
  }

  private statusText(c: ConversationItem) {
    if (c.status === 'resolved') return 'Resolved';
    if (c.status === 'snoozed' && c.snoozedUntil)
      return html`Snoozed until <time datetime=${new Date(c.snoozedUntil).toISOString()}>${exactTime(c.snoozedUntil)}</time>`;
    return 'Open';
  }

  private openActions() {
    return html`<button type="button" class="primary" ?disabled=${this.busy} @click=${() => this.setStatus({ status: 'resolved' }, 'Resolved.')}>Resolve</button>
      <label class="snooze">Snooze
        <select ?disabled=${this.busy} @change=${this.snooze}>
          <option value="" selected>Choose when…</option>
          ${snoozeChoices(new Date()).map((s) => html`<option value=${s.until.toISOString()}>${s.label}</option>`)}
        </select>
      </label>`;
  }

  private assign(e: Event) {
    const id = (e.target as HTMLSelectElement).value || null;
    const who = id === null ? 'nobody' : id === this.me?.id ? 'you' : (this.operators.find((o) => o.id === id)?.name ?? 'them');
    return this.act(() => this.api.assign(this.conversation.id, id), `Assigned to ${who}.`);
  }

  private snooze(e: Event) {
    const until = (e.target as HTMLSelectElement).value;
    if (!until) return;
    return this.setStatus({ status: 'snoozed', until }, `Snoozed until ${exactTime(until)}.`);
  }

  private setStatus(change: StatusChange, done: string) {
    return this.act(() => this.api.setStatus(this.conversation.id, change), done);
  }

  private async act(call: () => Promise<ConversationItem>, done: string) {
    this.busy = true;
    this.error = null;
    try {
      this.conversation = await call();
      this.announce(done);
      this.emit('heed-conversation-changed', { conversationId: this.conversation.id });
    } catch (err) {
      this.error = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }
}
