import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import '../message-attachments/message-attachments.ts';
import '../takeover/takeover.ts';
import '../team-bar/team-bar.ts';
import { supersededFailures } from '../../../api/src/shared/superseded-failures.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { Note, Transcript, TranscriptMessage, TranscriptRun } from '../state/contract.ts';
import { noticeText, provenanceLabel } from '../state/provenance.ts';
import { stateLabel } from '../state/attention-label.ts';
import { between, bothTimes, duration, exactTime, usd } from '../state/times.ts';
import { visitorLabel } from '../state/visitor-label.ts';
import { styles } from './transcript.styles.ts';

/** Changes to the open conversation come in bursts (send, claim, reply): one reload per burst. */
const RELOAD_DEBOUNCE_MS = 150;

/**
 * One conversation in full: every message with who wrote it (visitor, AI, operator…) and
 * its exact time in the operator's zone and the visitor's; every run (model, attempts,
 * tokens in/out, time to first token, duration, error kind, the messages it claimed); the
 * questions asked and todos kept; the title's history and every title check with its cost.
 * A failed reply that a later reply answered is marked superseded (`supersededFailures`, the
 * rule the widget uses to hide it), with no Retry.
 * Actions: "Retry" on a failed reply, "Rename" (optionally pinned), "Retitle", and the
 * takeover below the messages ("Take over", "Reply", "Send", "Hand back": `heed-console-takeover`).
 * Notices ("Ana joined", "Waiting for a person") are centred lines between the messages;
 * operator and unsolicited messages carry their provenance label ("Operator — Ana",
 * "Because you viewed Pricing", "Check-in", "From Shop"). A message's files show under its words
 * (`heed-message-attachments`: thumbnails that enlarge, links with type and size). A private
 * conversation shows its metadata and says its words are hidden (the server sends none of them,
 * nor its files' names and addresses).
 *
 * While it is on screen in a visible tab (and when the tab comes back into view), what it shows
 * is read for this operator (never for the visitor), a visitor's new messages included. It
 * follows `console.conversations.changes` for this conversation, reloading once per burst
 * of changes, so a reply, a failure, or a visitor's message while an operator holds the
 * conversation shows without a refresh and without polling.
 */
export class HeedConsoleTranscript extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  @state() private data: Transcript | null = null;
  @state() private error: string | null = null;
  @state() private busy: 'retry' | 'rename' | 'retitle' | null = null;
  @state() private renameError: string | null = null;
  private unsubscribe?: () => void;
  private reloadTimer?: ReturnType<typeof setTimeout>;
  private loadSeq = 0;

  override connectedCallback() {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisible);
    void this.load();
    this.unsubscribe = this.api.changes(undefined, {
      onChange: (c) => {
        if (c.item.id !== this.conversationId) return;
        clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => void this.load(), RELOAD_DEBOUNCE_MS);
      },
      onState: () => {},
      onError: (err) => this.failed(err),
    });
  }

  override disconnectedCallback() {
    document.removeEventListener('visibilitychange', this.onVisible);
    clearTimeout(this.reloadTimer);
    this.unsubscribe?.();
    super.disconnectedCallback();
  }

  override render() {
    if (this.error && !this.data) return html`<p class="error" role="alert">${this.error}</p>`;
    const d = this.data;
    if (!d) return html`<p class="muted">Loading the transcript…</p>`;
    const c = d.conversation;
    const number = new Map(d.messages.map((m, i) => [m.id, i + 1]));
    const superseded = supersededFailures(d.messages);
    return html`<h1>${c.title ?? 'New conversation'}</h1>
      <p class="facts">
        <span>${c.siteName}</span>
        <span>${visitorLabel(c.visitor)}</span>
        <span>Visitor's time zone: ${c.visitorTimeZone ?? 'unknown'}</span>
        <span>State: ${stateLabel(c)}</span>
        ${c.waitingForPerson ? html`<span class="waiting">Waiting for a person${this.waitingSince(d)}</span>` : nothing}
      </p>
      ${c.private ? html`<p class="private" role="note">Private — the visitor's words are hidden</p>` : nothing}
      <heed-console-team-bar .api=${this.api} .me=${this.me} .conversation=${c} @heed-conversation-changed=${this.changedHere}></heed-console-team-bar>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing} ${this.actions(d)}
      <section aria-labelledby="messages-h">
        <h2 id="messages-h">Messages</h2>
        <ol class="messages" aria-label="Messages">
          ${withNotes(d.messages, d.notes).map((m) =>
            'authorName' in m ? this.note(m) : this.message(m, number.get(m.id)!, c.visitorTimeZone, d, superseded.has(m.id)),
          )}
        </ol>
        <heed-console-takeover
          .api=${this.api}
          .me=${this.me}
          .conversationId=${this.conversationId}
          .siteId=${c.siteId}
          .heldBy=${c.heldBy ?? null}
          .isPrivate=${c.private}
          .waiting=${c.waitingForPerson}
          @heed-conversation-changed=${this.changedHere}
        ></heed-console-takeover>
      </section>
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Runs</h2>
        ${d.runs.length === 0 ? html`<p class="muted">No run yet.</p>` : this.runs(d.runs, number)}
        ${runKnowledge(d.runs)}
      </section>
      ${this.tools(d)} ${this.titles(d)}`;
  }

  private actions(d: Transcript) {
    const c = d.conversation;
    return html`<div class="actions">
      ${c.failed ? html`<button type="button" class="primary" ?disabled=${this.busy !== null} @click=${this.retry}>Retry</button>` : nothing}
      <form class="rename" @submit=${this.rename} aria-label="Rename">
        <label>Title <input name="title" .value=${c.title ?? ''} maxlength="200" required aria-invalid=${this.renameError ? 'true' : 'false'} /></label>
        <label class="inline"><input type="checkbox" name="pin" ?checked=${c.titleSource === 'fixed'} /> Pin this title</label>
        <button type="submit" ?disabled=${this.busy !== null}>Rename</button>
        ${this.renameError ? html`<span class="field-error">${this.renameError}</span>` : nothing}
      </form>
      ${c.private ? nothing : html`<button type="button" ?disabled=${this.busy !== null} @click=${this.retitle}>Retitle</button>`}
    </div>`;
  }

  private waitingSince(d: Transcript) {
    return d.waitingSince
      ? html` since <time datetime=${new Date(d.waitingSince).toISOString()}>${exactTime(d.waitingSince)}</time>`
      : nothing;
  }

  private message(m: TranscriptMessage, n: number, visitorZone: string | null, d: Transcript, superseded: boolean) {
    const t = bothTimes(m.createdAt, visitorZone);
    if (m.role === 'notice') {
      return html`<li class="notice" data-role="notice" data-provenance=${m.provenance ?? nothing}>
        <span>${noticeText(m)}</span> <time datetime=${new Date(m.createdAt).toISOString()}>${t.operator}</time>
      </li>`;
    }
    const failed = m.state === 'failed' || !!m.error;
    const lastFailed = failed && d.conversation.failed && m === d.messages.at(-1);
    return html`<li
      class="message"
      data-role=${m.role}
      data-provenance=${m.provenance ?? nothing}
      data-failed=${failed ? 'true' : 'false'}
      data-superseded=${superseded ? 'true' : nothing}
    >
      <div class="who">
        <span class="n">#${n}</span>
        <strong>${provenanceLabel(m, d.conversation.siteName)}</strong>
        <time datetime=${new Date(m.createdAt).toISOString()}>${t.operator}</time>
        ${t.visitor ? html`<span class="visitor-time">visitor: ${t.visitor}</span>` : nothing}
      </div>
      ${m.redacted ? html`<div class="content muted">Words hidden</div>` : m.content ? html`<div class="content">${m.content}</div>` : nothing}
      ${m.attachments.length > 0 ? html`<heed-message-attachments .api=${this.api} .me=${this.me} .attachments=${m.attachments}></heed-message-attachments>` : nothing}
      ${m.provenance === 'continue' ? html`<div class="content muted">Asked for the rest of the reply above (Continue)</div>` : nothing}
      ${m.cutShort ? html`<p class="cut">Cut short at the model's length limit.</p>` : nothing}
      ${failed ? this.failure(m, superseded) : nothing}
      ${lastFailed ? html`<button type="button" ?disabled=${this.busy !== null} @click=${this.retry}>Retry</button>` : nothing}
    </li>`;
  }

  /** The team's note, between the messages at its time; never the visitor's or the model's. */
  private note(n: Note) {
    return html`<li class="note" data-role="note">
      <div class="who">
        <strong>Internal note — ${n.authorName}</strong>
        <time datetime=${new Date(n.createdAt).toISOString()}>${exactTime(n.createdAt)}</time>
        <span class="muted">only your team sees this</span>
      </div>
      <div class="content">${n.content}</div>
    </li>`;
  }

  /** A failed reply says why; once a later reply answered its batch it says that instead of calling for a retry. */
  private failure(m: TranscriptMessage, superseded: boolean) {
    const why = m.error ? `: ${m.error}` : '';
    return superseded
      ? html`<p class="superseded">Reply failed${why} — superseded: a later reply answered.</p>`
      : html`<p class="error">Reply failed${why}.</p>`;
  }

  private runs(runs: TranscriptRun[], number: Map<string, number>) {
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Runs table"><table>
      <thead><tr><th>Started</th><th>Status</th><th>Model</th><th>Attempts</th><th>Tokens in / out</th><th>First token</th><th>Duration</th><th>Finish</th><th>Cost</th><th>Error</th><th>Claimed messages</th></tr></thead>
      <tbody>${runs.map(
        (r) => html`<tr data-run=${r.id}>
          <td>${r.startedAt ? exactTime(r.startedAt) : '—'}</td>
          <td>${r.status}</td>
          <td>${r.model ?? '—'}</td>
          <td>${r.attempts}</td>
          <td>${r.promptTokens ?? '—'} / ${r.completionTokens ?? '—'}</td>
          <td>${duration(between(r.startedAt, r.firstTokenAt))}</td>
          <td>${duration(between(r.startedAt, r.endedAt))}</td>
          <td>${finishLabel(r.finishReason)}</td>
          <td>${usd(r.costUsd)}</td>
          <td>${r.error ?? '—'}</td>
          <td class="claimed">${r.claimedMessageIds.length} (${r.claimedMessageIds.map((id) => `#${number.get(id) ?? '?'}`).join(', ')})</td>
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private tools(d: Transcript) {
    if (d.inputRequests.length === 0 && d.todos.length === 0) return nothing;
    return html`<section aria-labelledby="tools-h">
      <h2 id="tools-h">Questions and todos</h2>
      <ul class="plain">
        ${d.inputRequests.map((q) => html`<li>Asked: ${d.private ? 'a question (words hidden)' : `“${q.question}”`}${q.choices.length ? ` (${q.choices.join(' / ')})` : ''} — ${q.status} <span class="muted">${exactTime(q.createdAt)}</span></li>`)}
        ${d.todos.map((t) => html`<li>Todo: ${d.private ? '(words hidden)' : t.text} — ${t.status}${t.completedAt ? html` <span class="muted">done ${exactTime(t.completedAt)}</span>` : nothing}</li>`)}
      </ul>
    </section>`;
  }

  private titles(d: Transcript) {
    const total = d.titleChecks.reduce((sum, c) => sum + Number(c.costUsd ?? 0), 0);
    return html`<section aria-labelledby="titles-h">
      <h2 id="titles-h">Title</h2>
      <ol class="plain" aria-label="Title history">
        ${d.titleHistory.map((h) => html`<li><span class="muted">${h.at ? exactTime(h.at) : 'at an unknown time'}</span> ${h.source.replace('_', ' ')}: ${h.title ?? '(none)'}</li>`)}
      </ol>
      ${
        d.titleChecks.length === 0
          ? html`<p class="muted">No title check yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Title checks table"><table>
            <thead><tr><th>When</th><th>Outcome</th><th>Model</th><th>Tokens in / out</th><th>Latency</th><th>Cost</th><th>Error</th></tr></thead>
            <tbody>${d.titleChecks.map(
              (c) =>
                html`<tr><td>${exactTime(c.createdAt)}</td><td>${c.outcome}</td><td>${c.model ?? '—'}</td><td>${c.promptTokens ?? '—'} / ${c.completionTokens ?? '—'}</td><td>${duration(c.latencyMs)}</td><td>${usd(c.costUsd)}</td><td>${c.errorCode ?? '—'}</td></tr>`,
            )}</tbody>
          </table></div>
          <p>Title checks cost ${usd(total)} in all.</p>`
      }
    </section>`;
  }

  /** The takeover changed the conversation here: show it now, not after the stream's echo. */
  private changedHere() {
    clearTimeout(this.reloadTimer);
    void this.load();
  }

  override willUpdate(changed: PropertyValues<this>) {
    // the inbox opened another conversation in this pane
    if (changed.has('conversationId') && changed.get('conversationId') !== undefined) {
      this.data = null;
      this.error = null;
      void this.load();
    }
  }

  /** The tab came back into view: what it shows is read now. */
  private readonly onVisible = () => {
    if (document.visibilityState === 'visible' && this.data) void this.api.markRead(this.conversationId).catch((err) => this.failed(err));
  };

  private async load() {
    const seq = ++this.loadSeq;
    const id = this.conversationId;
    try {
      const data = await this.api.transcript(id);
      if (seq !== this.loadSeq) return;
      this.data = data;
      this.error = null;
      this.emit('heed-title', { title: data.conversation.title ?? 'New conversation' });
      // read only while it is on screen: a visitor's message seen here sends no email alert
      if (document.visibilityState === 'visible') {
        await this.api.markRead(id).catch((err) => this.failed(err));
      }
    } catch (err) {
      if (seq === this.loadSeq) this.error = this.failed(err).message;
    }
  }

  private async act(kind: 'retry' | 'rename' | 'retitle', call: () => Promise<unknown>, done: string) {
    this.busy = kind;
    this.error = null;
    try {
      await call();
      this.announce(done);
      await this.load();
      return true;
    } catch (err) {
      const text = this.failed(err);
      if (kind === 'rename') this.renameError = text.fields.title ?? text.message;
      else this.error = text.message;
      return false;
    } finally {
      this.busy = null;
    }
  }

  private retry() {
    return this.act('retry', () => this.api.retry(this.conversationId), 'Retrying the reply.');
  }

  private retitle() {
    return this.act('retitle', () => this.api.retitle(this.conversationId), 'Asked for a new title.');
  }

  private rename(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const title = String(form.get('title') ?? '').trim();
    this.renameError = title ? null : 'Enter a title.';
    if (!title) return;
    const pin = form.get('pin') === 'on';
    return this.act(
      'rename',
      () => this.api.rename(this.conversationId, title, pin),
      pin ? `Renamed and pinned: ${title}.` : `Renamed: ${title}.`,
    );
  }
}

/**
 * What each run was shown of the site's knowledge and what its reply cited: the owner sees why
 * an answer said what it said, and which pages never help.
 */
function runKnowledge(runs: TranscriptRun[]) {
  const shown = runs.filter((r) => r.knowledge?.length);
  if (shown.length === 0) return nothing;
  return html`<h3>Site knowledge shown to the model</h3>
    <ol class="plain knowledge" aria-label="Site knowledge per run">
      ${shown.map(
        (r) => html`<li data-run=${r.id}>
          Run started ${r.startedAt ? exactTime(r.startedAt) : 'at an unknown time'}:
          <ul>${r.knowledge!.map(excerptItem)}</ul>
        </li>`,
      )}
    </ol>`;
}

function excerptItem(e: NonNullable<TranscriptRun['knowledge']>[number]) {
  const name = e.heading && e.heading !== e.title ? `${e.title} — ${e.heading}` : e.title;
  const where = e.url
    ? html`<a href=${e.url} target="_blank" rel="noopener noreferrer">${name}</a>`
    : html`${name} <span class="muted">(file or snippet)</span>`;
  return html`<li>[${e.n}] ${where} — ${e.cited ? html`<strong>cited</strong>` : 'not cited'}</li>`;
}

/** A run's finish reason as an operator reads it: a cut-short or filtered reply says so in words. */
function finishLabel(reason: string | null): string {
  if (reason === 'length') return 'cut short (length)';
  if (reason === 'content_filter') return 'filtered (content_filter)';
  return reason ?? '—';
}

/** Messages and notes in one time order (a note after the message written at the same instant). */
function withNotes(messages: readonly TranscriptMessage[], notes: readonly Note[]): (TranscriptMessage | Note)[] {
  if (notes.length === 0) return [...messages];
  const at = (x: { createdAt: string | Date }) => new Date(x.createdAt).getTime();
  return [...messages, ...notes].sort((a, b) => at(a) - at(b) || ('authorName' in a ? 1 : 0) - ('authorName' in b ? 1 : 0));
}
