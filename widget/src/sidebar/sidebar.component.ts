import { html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { collapseIcon, expandIcon, plusIcon } from '../shared/panel-icons.ts';
import type { ConversationView } from '../state/types.ts';
import { styles } from './sidebar.styles.ts';

/**
 * The visitor's conversations (a list named "Conversations"), a "New conversation"
 * button, and a toggle that collapses the sidebar to icons and dots.
 *
 * @event heed-select - From a row: `detail: { conversationId }`.
 * @event heed-new-conversation - The visitor asked for a new conversation.
 * @event heed-sidebar-toggle - The collapse toggle was pressed: `detail: { collapsed }` (the new value).
 *
 * @csspart new - The "New conversation" button.
 * @csspart list - The list of rows.
 *
 * @cssproperty --heed-sidebar-width - Width when expanded (256px).
 * @cssproperty --heed-sidebar-collapsed-width - Width when collapsed (56px).
 * @cssproperty --heed-sidebar-background - Background.
 */
export class HeedSidebar extends HeedElement {
  static override styles = styles;
  static override properties = {
    conversations: { attribute: false },
    selectedId: { attribute: false },
    collapsed: { type: Boolean, reflect: true },
    noCollapse: { type: Boolean, attribute: 'no-collapse' },
    locale: {},
    now: { type: Number },
  };

  conversations: readonly ConversationView[] = [];
  selectedId: string | null = null;
  collapsed = false;
  /** hides the collapse toggle (in the narrow layout the sidebar is a drawer instead) */
  noCollapse = false;
  locale?: string;
  now?: number;

  override render() {
    const hide = (text: string) => (this.collapsed ? html`<span class="sr-only">${text}</span>` : html`<span>${text}</span>`);
    return html`
      <div class="top">
        <h2 id="heading" class=${this.collapsed ? 'sr-only' : ''}>${t.conversations}</h2>
        ${
          this.noCollapse
            ? null
            : html`<button class="toggle" @click=${this.toggle}>
              ${this.collapsed ? expandIcon() : collapseIcon()}<span class="sr-only">${this.collapsed ? t.expandSidebar : t.collapseSidebar}</span>
            </button>`
        }
      </div>
      <button class="new" part="new" @click=${() => this.emit('heed-new-conversation')}>${plusIcon()}${hide(t.newConversation)}</button>
      <ul part="list" aria-labelledby="heading">
        ${repeat(
          this.conversations,
          (c) => c.id,
          (c) => html`<li>
            <heed-conversation-row .conversation=${c} ?collapsed=${this.collapsed} .selected=${c.id === this.selectedId} .locale=${this.locale} .now=${this.now}></heed-conversation-row>
          </li>`,
        )}
      </ul>
    `;
  }

  private toggle() {
    this.emit('heed-sidebar-toggle', { collapsed: !this.collapsed });
  }
}
