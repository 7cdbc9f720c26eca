import { html } from 'lit';
import { attentionOf, type Attention } from '../../../api/src/shared/attention.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { lang } from '../i18n/i18n.ts';
import { t } from '../i18n/panel-strings.ts';
import { chatIcon } from '../shared/icons.ts';
import { messageIcon, personIcon, questionIcon, radioIcon } from '../shared/panel-icons.ts';
import { relativeTime } from '../shared/relative-time.ts';
import type { Messages } from '../i18n/en.ts';
import type { ConversationView } from '../state/types.ts';
import { styles } from './conversation-row.styles.ts';

const LOOK: Record<Attention, { icon: unknown; text: ((m: Messages) => string) | null }> = {
  live: { icon: radioIcon(), text: (m) => m.live },
  input_needed: { icon: questionIcon(), text: (m) => m.inputNeeded },
  unviewed: { icon: messageIcon(), text: (m) => m.newResponse },
  waiting: { icon: personIcon(), text: (m) => m.waitingForPerson },
  default: { icon: chatIcon(), text: null },
};

/**
 * One conversation in the sidebar, in the state the shared attention rule gives it:
 * live (emerald radio icon, pulsing ping dot, "Live"), input needed (amber question icon,
 * pulsing ping dot, "Input needed"), unviewed (blue message icon, solid blue dot, bold
 * title, "New response"), waiting for a person (violet person icon, no dot: nothing to act
 * on, so no badge counts it; "Waiting for a person") or default (chat icon, its relative
 * date). The state's text
 * replaces the date, bold in the state's colour. Collapsed, only the icon and dot show; the
 * text stays for screen readers. No pulse for visitors who ask for reduced motion.
 *
 * @event heed-select - The visitor chose this conversation. `detail: { conversationId }`.
 *
 * @csspart row - The row's button; `data-state` holds the attention state.
 * @csspart icon - The state icon.
 * @csspart dot - The state dot on the icon (`::after` is its ping ring while live or input needed).
 * @csspart status - The relative date, or the state's text in its colour.
 *
 * @cssproperty --heed-live-color - Live icon, dot and border colour.
 * @cssproperty --heed-input-needed-color - Input-needed colour.
 * @cssproperty --heed-unviewed-color - Unviewed colour.
 * @cssproperty --heed-waiting-color - Waiting-for-a-person colour.
 * @cssproperty --heed-live-background - And likewise `-input-needed-`, `-unviewed-` and `-waiting-`; also `-border`.
 */
export class HeedConversationRow extends HeedElement {
  static override styles = styles;
  static override properties = {
    conversation: { attribute: false },
    collapsed: { type: Boolean, reflect: true },
    selected: { type: Boolean },
    locale: {},
    now: { type: Number },
  };

  conversation?: ConversationView;
  collapsed = false;
  selected = false;
  locale?: string;
  /** the clock relative dates are measured against (tests pin it) */
  now?: number;

  get state(): Attention {
    return this.conversation ? attentionOf(this.conversation) : 'default';
  }

  override render() {
    const c = this.conversation;
    if (!c) return null;
    const state = this.state;
    const look = LOOK[state];
    const status = look.text ? look.text(t) : relativeTime(c.updatedAt, this.now ?? Date.now(), this.locale ?? lang);
    const textClass = this.collapsed ? 'sr-only' : 'text';
    return html`<button part="row" class="row" data-state=${state} aria-current=${this.selected ? 'true' : 'false'} @click=${this.select}>
      <span class="icon" part="icon">${look.icon}<span class="dot" part="dot"></span></span>
      <span class=${textClass}>
        <span class="title" dir="auto">${c.title ?? t.newConversation}</span>
        <span class="status" part="status"><span class="sr-only">${t.comma}</span>${status}</span>
      </span>
    </button>`;
  }

  override focus(options?: FocusOptions) {
    this.renderRoot.querySelector('button')?.focus(options);
  }

  private select() {
    if (this.conversation) this.emit('heed-select', { conversationId: this.conversation.id });
  }
}
