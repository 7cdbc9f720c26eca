import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { HeedElement } from '../../../widget/src/shared/heed-element.ts';
import '../accept-invite/accept-invite.ts';
import '../inbox/inbox.ts';
import '../operators/operators.ts';
import '../profile/profile.ts';
import '../overview/overview.ts';
import '../sign-in/sign-in.ts';
import '../site-editor/site-editor.ts';
import '../sites/sites.ts';
import { AlertsController } from '../alerts/alerts-controller.ts';
import { countedTitle } from '../alerts/needs-me.ts';
import { createConsoleApi, type ConsoleApi } from '../state/console-api.ts';
import type { Me } from '../state/contract.ts';
import { errorText } from '../state/error-text.ts';
import { hrefOf, parseRoute, type Route, SECTIONS, sectionOf, titleOf } from '../state/route.ts';
import { styles } from './console-app.styles.ts';

/**
 * The console: asks who is signed in, then shows the sign-in (or an invitation's form) or
 * the layout — a header with the operator and "Sign out", the navigation (Overview,
 * Conversations, Sites, Operators) and the open view, chosen by the location hash. The
 * document title names the open view, after the count of conversations needing the operator
 * (alerts/needs-me.ts). The alerts run here, once, whatever the view (alerts/alerts-controller.ts).
 * One polite live region speaks what views announce (`heed-announce`); after a navigation,
 * focus moves to the new view's heading area so a keyboard or screen reader user lands on it.
 *
 * @csspart nav - The navigation.
 */
export class HeedConsoleApp extends HeedElement {
  static override styles = styles;

  /** the client (tests pass their own) */
  @property({ attribute: false }) api: ConsoleApi = createConsoleApi();
  @state() private me: Me | null | undefined = undefined;
  @state() private route: Route = parseRoute(location.hash);
  @state() private announcement = '';
  @state() private loadError: string | null = null;
  @query('main') private main?: HTMLElement;
  private titleDetail: string | null = null;
  private readonly alerts = new AlertsController(this);

  private readonly onHash = () => {
    const before = this.route;
    this.route = parseRoute(location.hash);
    this.titleDetail = null;
    // within the inbox (another filter, another conversation) the inbox moves focus itself
    if (inInbox(before) && inInbox(this.route)) return;
    this.updateComplete.then(() => this.main?.focus({ preventScroll: false }));
  };

  override connectedCallback() {
    super.connectedCallback();
    addEventListener('hashchange', this.onHash);
    this.addEventListener('heed-announce', (e) => this.say((e as CustomEvent<{ text: string }>).detail.text));
    this.addEventListener('heed-signed-out', () => {
      this.api.closeChanges();
      this.me = null;
    });
    // the operator renamed themselves: the header says so at once
    this.addEventListener('heed-renamed', (e) => {
      if (this.me) this.me = { ...this.me, name: (e as CustomEvent<{ name: string }>).detail.name };
    });
    this.addEventListener('heed-signed-in', (e) => this.signedIn((e as CustomEvent<{ operator: Me }>).detail.operator));
    this.addEventListener('heed-title', (e) => {
      this.titleDetail = (e as CustomEvent<{ title: string | null }>).detail.title;
      this.updateTitle();
    });
    void this.whoAmI();
  }

  override disconnectedCallback() {
    removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  override willUpdate() {
    // before rendering, so a count the sync changes lands in this update, not another one
    this.alerts.sync(this.api, this.me, this.route.view === 'transcript' ? this.route.conversationId : null);
  }

  override updated() {
    this.updateTitle();
  }

  override render() {
    if (this.me === undefined) {
      return html`<p class="loading" role=${this.loadError ? 'alert' : nothing}>${this.loadError ?? 'Loading the console…'}</p>${this.region()}`;
    }
    if (this.route.view === 'invite') {
      return html`<heed-accept-invite .api=${this.api} .token=${this.route.token}></heed-accept-invite>${this.region()}`;
    }
    if (!this.me) return html`<heed-sign-in .api=${this.api}></heed-sign-in>${this.region()}`;
    const section = sectionOf(this.route);
    return html`<div class="layout">
        <header>
          <span class="brand">Heed console</span>
          <span class="who"><span class="sr-only">Signed in as </span>${this.me.name || this.me.email}<span class="sr-only">, </span><span class="role">${this.me.role}</span></span>
          <a href=${hrefOf({ view: 'profile' })} aria-current=${this.route.view === 'profile' ? 'page' : nothing}>Your profile</a>
          <button type="button" @click=${this.signOut}>Sign out</button>
        </header>
        <nav part="nav" aria-label="Console">
          <ul>
            ${SECTIONS.map(
              (s) =>
                html`<li><a href=${hrefOf({ view: s.view })} aria-current=${section === s.view ? 'page' : nothing}>${s.label}</a></li>`,
            )}
          </ul>
        </nav>
        <main tabindex="-1" aria-label=${titleOf(this.route).replace(' · Heed console', '')}>${this.view()}</main>
      </div>
      ${this.region()}`;
  }

  private view() {
    const r = this.route;
    const common = { api: this.api, me: this.me };
    // one template for the list and an open conversation: the inbox stays, its list keeps its place
    if (inInbox(r)) {
      const conversationId = r.view === 'transcript' ? r.conversationId : null;
      return html`<heed-console-inbox .api=${common.api} .me=${common.me} .conversationId=${conversationId} .list=${r.list ?? {}}></heed-console-inbox>`;
    }
    switch (r.view) {
      case 'overview':
        return html`<heed-console-overview .api=${common.api} .me=${common.me}></heed-console-overview>`;
      case 'sites':
        return html`<heed-console-sites .api=${common.api} .me=${common.me}></heed-console-sites>`;
      case 'site':
        return html`<heed-site-editor .api=${common.api} .me=${common.me} .siteId=${r.siteId}></heed-site-editor>`;
      case 'operators':
        return html`<heed-console-operators .api=${common.api} .me=${common.me}></heed-console-operators>`;
      case 'profile':
        return html`<heed-console-profile .api=${common.api} .me=${common.me}></heed-console-profile>`;
      default:
        return html`<heed-console-inbox .api=${common.api} .me=${common.me} .conversationId=${null} .list=${{}}></heed-console-inbox>`;
    }
  }

  /** The one live region: every announcement of every view goes through it. */
  private region() {
    return html`<div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
  }

  private say(text: string) {
    // cleared first so the same sentence twice is spoken twice
    this.announcement = '';
    requestAnimationFrame(() => void (this.announcement = text));
  }

  private updateTitle() {
    const route = this.me ? this.route : this.route.view === 'invite' ? this.route : null;
    document.title = route ? countedTitle(titleOf(route, this.titleDetail), this.alerts.count) : 'Sign in · Heed console';
  }

  private async whoAmI() {
    try {
      this.me = await this.api.me();
    } catch (err) {
      this.loadError = errorText(err).message;
    }
  }

  private signedIn(operator: Me) {
    this.me = operator;
    if (this.route.view === 'invite') location.hash = hrefOf({ view: 'conversations' });
    this.say(`Signed in as ${operator.email}.`);
  }

  private async signOut() {
    this.api.closeChanges();
    try {
      await this.api.signOut();
    } catch {
      // the session is ended server-side or already gone; the sign-in shows either way
    }
    this.me = null;
    this.say('Signed out.');
  }
}

/** The list and the open conversation are one view, the inbox. */
const inInbox = (r: Route) => r.view === 'conversations' || r.view === 'transcript';
