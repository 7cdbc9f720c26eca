import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import '../visitor-erase/visitor-erase.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ErasingDetail } from '../visitor-erase/visitor-erase.component.ts';
import type { EarlierConversation, VisitorProfile } from '../state/contract.ts';
import { hrefOf } from '../state/route.ts';
import { exactTime, isKnownZone } from '../state/times.ts';
import { styles } from './visitor-profile.styles.ts';

/** Changes come in bursts (a send, its claim, the reply): one reload per burst. */
const RELOAD_DEBOUNCE_MS = 150;

const STATUS: Record<EarlierConversation['status'], string> = { open: 'Open', resolved: 'Resolved', snoozed: 'Snoozed' };
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A visitor's address as a link only when it is a web address: what a page reported is never a `javascript:` link. */
const webLink = (url: string, text: string) =>
  /^https?:\/\//i.test(url) ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${text}</a>` : html`${text}`;

/** The visitor's data as one JSON file: a plain link, the session cookie authenticates it (like the list's CSV). */
const exportHref = (conversationId: string) => `/admin/export/visitor.json?${new URLSearchParams({ conversationId })}`;

/** A language tag in words, "Portuguese (Brazil) — pt-BR"; the tag alone when the browser cannot name it. */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} — ${tag}` : tag;
  } catch {
    return tag;
  }
}

/**
 * Who is on the other side of a conversation, for the pane beside its transcript: what the host
 * signed about an identified user (id, name, email, attributes), this visit (the page they are
 * on now when the site shares visitor pages, where they came from, browser, language, time zone,
 * first and last seen), their other conversations on the site as links to them, and their data:
 * "Download data" (one JSON file) for everyone, "Delete visitor data…" for owners. Headings
 * and definition lists, so a screen reader can jump between parts and hear each term with its
 * value; long addresses wrap inside a 320 px pane.
 *
 * It reloads when `conversationId` changes, and whenever the live list says this conversation
 * or another of this visitor's changed, which includes the visitor moving to another page (the
 * API re-sends their newest conversations then), or one of their earlier conversations was
 * deleted, so what is shown follows the visitor without polling.
 *
 * @event heed-visitor-erasing - From the delete button: the erasure is under way (see `heed-visitor-erase`).
 * @event heed-visitor-erased - From the delete button: the visitor's data is gone.
 */
export class HeedConsoleVisitorProfile extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  @state() private profile: VisitorProfile | null = null;
  @state() private error: string | null = null;
  private unsubscribe?: () => void;
  private reloadTimer?: ReturnType<typeof setTimeout>;
  /** the visitor is being erased from here: a reload would only find them gone */
  private erasing = false;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('heed-visitor-erasing', this.onErasing as EventListener);
    this.unsubscribe = this.api.changes(undefined, {
      onChange: (c) => {
        const mine = c.item.id === this.conversationId || (this.profile !== null && c.item.visitor.id === this.profile.visitorId);
        if (mine) this.reloadSoon();
      },
      // this conversation's own removal is the page's to show; an earlier one leaves the list here
      onRemoved: (id) => {
        if (this.profile?.earlier.some((c) => c.id === id)) this.reloadSoon();
      },
      onState: () => {},
      onError: (err) => this.failed(err),
    });
  }

  private readonly onErasing = (e: CustomEvent<ErasingDetail>) => {
    this.erasing = true;
    clearTimeout(this.reloadTimer);
    void e.detail.done.then((erased) => void (this.erasing = erased));
  };

  private reloadSoon() {
    if (this.erasing) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.load(), RELOAD_DEBOUNCE_MS);
  }

  override disconnectedCallback() {
    clearTimeout(this.reloadTimer);
    this.unsubscribe?.();
    super.disconnectedCallback();
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('conversationId') && this.conversationId) {
      // another conversation's visitor: never show the previous one's while the new one loads
      if (this.profile && changed.get('conversationId')) this.profile = null;
      this.error = null;
      this.erasing = false;
      void this.load();
    }
  }

  override render() {
    const p = this.profile;
    return html`<section aria-labelledby="visitor-h">
      <h2 id="visitor-h">Visitor</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${p === null && !this.error ? html`<p class="muted">Loading the visitor…</p>` : nothing}
      ${p ? html`${this.identity(p)} ${this.visit(p)} ${this.earlier(p)} ${this.data()}` : nothing}
    </section>`;
  }

  private identity(p: VisitorProfile) {
    const who = p.identified;
    if (!who) return html`<h3 id="identity-h">Identity</h3><p class="muted">Anonymous: the site did not identify this visitor.</p>`;
    return html`<h3 id="identity-h">Identity</h3>
      <dl aria-labelledby="identity-h">
        ${who.name ? html`<dt>Name</dt><dd>${who.name}</dd>` : nothing}
        ${who.email ? html`<dt>Email</dt><dd><a href=${`mailto:${who.email}`}>${who.email}</a></dd>` : nothing}
        <dt>User id</dt><dd>${who.userId}</dd>
        ${Object.entries(who.attributes).map(([key, value]) => html`<dt>${key}</dt><dd>${String(value)}</dd>`)}
      </dl>`;
  }

  private visit(p: VisitorProfile) {
    const zone = isKnownZone(p.timeZone) ? p.timeZone : undefined;
    return html`<h3 id="visit-h">This visit</h3>
      <dl aria-labelledby="visit-h">
        <dt>Page now</dt>
        <dd data-field="page">${this.page(p)}</dd>
        <dt>Came from</dt>
        <dd data-field="referrer">${p.referrer ? webLink(p.referrer, p.referrer) : html`<span class="muted">Not known (typed in, a bookmark, or hidden)</span>`}</dd>
        <dt>Browser</dt>
        <dd data-field="browser">${p.browser ?? p.userAgent ?? html`<span class="muted">Not known</span>`}</dd>
        <dt>Language</dt>
        <dd data-field="language">${p.language ? languageName(p.language) : html`<span class="muted">Not known</span>`}</dd>
        <dt>Time zone</dt>
        <dd data-field="time-zone">${p.timeZone}${zone ? html` <span class="muted">(now ${localNow(zone)})</span>` : nothing}</dd>
        <dt>First seen</dt>
        <dd><time datetime=${new Date(p.firstSeenAt).toISOString()}>${exactTime(p.firstSeenAt)}</time></dd>
        <dt>Last seen</dt>
        <dd><time datetime=${new Date(p.lastSeenAt).toISOString()}>${exactTime(p.lastSeenAt)}</time></dd>
      </dl>`;
  }

  private page(p: VisitorProfile) {
    if (!p.pagesShared) return html`<span class="muted">Not shared: the site's owner has not turned on sharing visitor pages.</span>`;
    if (!p.page) return html`<span class="muted">Not reported yet</span>`;
    const { url, title } = p.page;
    return html`${webLink(url, title ?? url)}${title ? html` <span class="url">${url}</span>` : nothing}`;
  }

  private earlier(p: VisitorProfile) {
    return html`<h3 id="earlier-h">Earlier conversations</h3>
      ${
        p.earlier.length === 0
          ? html`<p class="muted">None on this site.</p>`
          : html`<ul aria-labelledby="earlier-h">
            ${p.earlier.map(
              (c) => html`<li data-conversation=${c.id}>
                <a href=${hrefOf({ view: 'transcript', conversationId: c.id })}>${c.private ? 'Private conversation' : (c.title ?? 'New conversation')}</a>
                <span class="meta muted"
                  ><time datetime=${new Date(c.updatedAt).toISOString()}>${day.format(new Date(c.updatedAt))}</time> · ${STATUS[c.status]}</span
                >
              </li>`,
            )}
          </ul>`
      }`;
  }

  /** Everything Heed holds about the visitor: to download (anyone), or to delete for good (owners). */
  private data() {
    return html`<h3 id="data-h">Their data</h3>
      <p class="hint" id="data-note">Everything Heed holds about this visitor, as one JSON file.</p>
      <div class="data-actions">
        <a class="button" href=${exportHref(this.conversationId)} download aria-describedby="data-note">Download data</a>
        ${this.isOwner ? html`<heed-visitor-erase .api=${this.api} .me=${this.me} .conversationId=${this.conversationId}></heed-visitor-erase>` : nothing}
      </div>`;
  }

  private async load() {
    const asked = this.conversationId;
    if (!asked) return;
    try {
      const profile = await this.api.visitorProfile(asked);
      // an answer for a conversation no longer shown is dropped
      if (asked !== this.conversationId) return;
      this.profile = profile;
      this.error = null;
    } catch (err) {
      if (asked === this.conversationId) this.error = this.failed(err).message;
    }
  }
}

/** The visitor's local time now, "14:05", so an operator knows whether it is the middle of their night. */
function localNow(timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
}
