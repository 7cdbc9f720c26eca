import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { askNotificationPermission, type NotificationState, notificationState } from '../alerts/browser-notification.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { AlertSettings } from '../state/contract.ts';
import { styles } from './alert-settings.styles.ts';

type Channel = 'notify' | 'sound' | 'email';

/** Each channel's label and what turning it on or off is announced as. */
const CHANNELS: Record<Channel, { label: string; on: string; off: string }> = {
  notify: { label: 'Browser notifications', on: 'Browser notifications on.', off: 'Browser notifications off.' },
  sound: { label: 'Sound', on: 'Sound on.', off: 'Sound off.' },
  email: { label: 'Email', on: 'Email alerts on.', off: 'Email alerts off.' },
};

/**
 * "Alerts" in the operator's profile: how they hear of a visitor waiting for a person and of a
 * visitor writing in their conversations. One box per channel, each saved as it changes, and
 * what the browser allows: notifications on, blocked by the browser, or not supported, with
 * "Turn on browser notifications" while the browser has not been asked (it asks only from a click).
 *
 * @event heed-alert-settings - The settings changed; the app's alerts follow them. `detail: AlertSettings`.
 */
export class HeedAlertSettings extends ConsoleElement {
  static override styles = styles;

  @state() private settings: AlertSettings | null = null;
  @state() private permission: NotificationState = notificationState();
  @state() private saving: Channel | null = null;
  @state() private error: string | null = null;
  private watched: PermissionStatus | null = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
    void this.watchPermission();
  }

  override disconnectedCallback() {
    if (this.watched) this.watched.onchange = null;
    super.disconnectedCallback();
  }

  override render() {
    const s = this.settings;
    return html`<section aria-labelledby="alerts-h">
      <h2 id="alerts-h">Alerts</h2>
      <p>When a visitor waits for a person, or writes in a conversation assigned to you or taken over by you. While the console is open, its tab’s title counts what needs you.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        s
          ? html`${this.box('notify', s, this.permissionText(s))}
            ${this.permission === 'default' ? html`<button type="button" @click=${this.turnOn}>Turn on browser notifications</button>` : nothing}
            ${this.box('sound', s, 'A short chime in this console, once you have clicked or typed in it.')}
            ${this.box('email', s, s.emailEnabled ? 'An email when nobody opened the conversation within a few minutes.' : 'Email is off on this server.', !s.emailEnabled)}`
          : this.error
            ? nothing
            : html`<p class="muted">Loading…</p>`
      }
    </section>`;
  }

  private box(channel: Channel, s: AlertSettings, note: string, off = false) {
    const id = `alert-${channel}`;
    return html`<div class="channel">
      <label class="inline" for=${id}>
        <input id=${id} type="checkbox" .checked=${live(s[channel])} ?disabled=${off || this.saving !== null}
          aria-describedby="${id}-note" @change=${(e: Event) => this.save(channel, (e.target as HTMLInputElement).checked)} />
        ${CHANNELS[channel].label}
      </label>
      <span id="${id}-note" class="hint">${note}</span>
    </div>`;
  }

  /** What the browser allows, beside the notifications box. */
  private permissionText(s: AlertSettings): string {
    switch (this.permission) {
      case 'unsupported':
        return 'Not supported by this browser.';
      case 'denied':
        return 'Blocked by the browser. To get them, allow notifications for this site in the browser’s site settings.';
      case 'default':
        return 'This browser has not been allowed to show them yet.';
      default:
        return s.notify ? 'On in this browser.' : 'Off. The browser allows them.';
    }
  }

  private async load() {
    try {
      this.settings = await this.api.alertSettings();
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async save(channel: Channel, on: boolean) {
    const before = this.settings;
    if (!before) return;
    this.saving = channel;
    this.error = null;
    try {
      this.settings = await this.api.setAlertSettings({ [channel]: on });
      this.announce(on ? CHANNELS[channel].on : CHANNELS[channel].off);
      this.emit('heed-alert-settings', this.settings);
    } catch (err) {
      this.settings = { ...before };
      this.error = this.failed(err).message;
    } finally {
      this.saving = null;
    }
  }

  /** Asks the browser (this click is the gesture it requires); allowed, the box is ticked too. */
  private async turnOn() {
    this.permission = await askNotificationPermission();
    if (this.permission === 'granted') {
      if (this.settings && !this.settings.notify) await this.save('notify', true);
      else this.announce('Browser notifications on.');
    } else if (this.permission === 'denied') this.announce('The browser blocked notifications.');
  }

  /** The permission can change in the browser's own settings while the profile is open. */
  private async watchPermission() {
    try {
      this.watched = await navigator.permissions.query({ name: 'notifications' });
      this.watched.onchange = () => void (this.permission = notificationState());
    } catch {
      // no Permissions API: the state is read again on the next visit
    }
  }
}
