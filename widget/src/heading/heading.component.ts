import { html, nothing, type PropertyValues } from 'lit';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { moreIcon, pencilIcon } from '../shared/panel-icons.ts';
import type { ConnectionStatus } from '../state/types.ts';
import { TITLE_MAX, titleFromInput } from './title-input.ts';
import { styles } from './heading.styles.ts';

/**
 * The one heading every layout uses: the truncated title with an inline connection dot
 * that never wraps, the connection status in a fixed place below it, and the provenance
 * label (`provenance`: "Private · Operator — Ana", see `headingLabel`). Its status text is
 * the widget's only `aria-live` region, so assistive tech hears connection changes once,
 * from one place; `announcement` is read out there too, unseen (what happened to a file the
 * visitor attached: the file itself shows it).
 *
 * When `renamable`, a "Rename conversation" button turns the title into a text field
 * named "Conversation title": Enter (or leaving the field) saves a changed, valid title
 * (1–64 characters once trimmed), Escape cancels; focus returns to the button.
 *
 * With `options`, a "Conversation options" menu button opens a menu holding the "Private"
 * toggle (a `menuitemcheckbox`, described by what private means) and "Delete conversation".
 * Opening focuses the toggle, the arrow keys (and Home, End) move between the two; Escape,
 * Tab away or a click outside closes the menu, Escape returning focus to the button. The
 * toggle only asks (`heed-private-change`); `private` shows the state. "Delete conversation"
 * asks first, in a modal `alertdialog` (a native `<dialog>`, so the browser keeps focus in it
 * and the rest inert) under the heading, focus on Cancel: Cancel or Escape closes it, Delete
 * asks the panel (`heed-delete`); either way focus goes back to the menu button.
 *
 * @slot start - Buttons before the title (the drawer or back button).
 * @slot end - Buttons after the title (close).
 *
 * @event heed-rename - The visitor renamed the conversation: `detail: { title }` (trimmed, whitespace collapsed).
 * @event heed-private-change - The visitor toggled "Private": `detail: { private }` (the wanted value).
 * @event heed-delete - The visitor confirmed "Delete conversation" (the open one).
 *
 * @csspart heading - The header bar.
 * @csspart title - The title.
 * @csspart title-input - The title field while renaming.
 * @csspart rename - The rename button.
 * @csspart connection-dot - The connection dot; `data-status` holds the status.
 * @csspart status - The status text.
 * @csspart provenance - The provenance label.
 * @csspart menu-button - The conversation menu's button.
 * @csspart menu - The open menu.
 * @csspart confirm - The confirmation before deleting (a `<dialog>`).
 *
 * @cssproperty --heed-heading-background - Bar background.
 * @cssproperty --heed-heading-font-size - Title size.
 * @cssproperty --heed-connected-color - Dot colour when connected (also `--heed-reconnecting-color`, `--heed-offline-color`).
 */
export class HeedHeading extends HeedElement {
  static override styles = styles;
  static override properties = {
    label: {},
    connection: {},
    provenance: {},
    announcement: {},
    layout: { reflect: true },
    renamable: { type: Boolean },
    options: { type: Boolean },
    isPrivate: { type: Boolean, attribute: 'private' },
    draft: { state: true },
    invalid: { state: true },
    menuOpen: { state: true },
  };

  /** the conversation title (or the site name on the home view) */
  label = '';
  connection: ConnectionStatus = 'connecting';
  provenance: string | null = null;
  /** a sentence for screen readers, said through the status region (visually hidden) */
  announcement = '';
  layout: 'wide' | 'narrow' = 'wide';
  /** offers the rename button (a thread is open) */
  renamable = false;
  /** offers the conversation menu (a thread is open) */
  options = false;
  /** the open conversation is private (the menu's toggle shows it checked) */
  isPrivate = false;

  /** the title when renaming began; null when not renaming */
  private draft: string | null = null;
  private invalid = false;
  private menuOpen = false;
  private get input(): HTMLInputElement | null {
    return this.renderRoot?.querySelector<HTMLInputElement>('input');
  }
  private get renameButton(): HTMLButtonElement | null {
    return this.renderRoot?.querySelector<HTMLButtonElement>('.rename');
  }
  private get confirm(): HTMLDialogElement | null {
    return this.renderRoot?.querySelector<HTMLDialogElement>('dialog');
  }

  override render() {
    const editing = this.draft !== null;
    // a div, not <header>: in the page's tree a <header> is a banner landmark, a second one beside the host page's own
    return html`<div class="bar" part="heading">
      <slot name="start"></slot>
      <div class="main">
        <div class="title-line">
          ${
            editing
              ? html`<input
                part="title-input"
                dir="auto"
                aria-label=${t.conversationTitle}
                maxlength=${TITLE_MAX}
                .value=${this.draft}
                aria-invalid=${this.invalid ? 'true' : 'false'}
                @keydown=${this.keydown}
                @input=${() => (this.invalid = false)}
                @blur=${() => this.finish(titleFromInput(this.input!.value) ? 'save' : 'cancel', false)}
              />`
              : html`<h2 part="title" dir="auto" title=${this.label}>${this.label}</h2>`
          }
          <span class="dot" part="connection-dot" data-status=${this.connection} aria-hidden="true"></span>
          ${
            this.renamable && !editing
              ? html`<button class="rename" part="rename" @click=${this.edit}>${pencilIcon()}<span class="sr-only">${t.rename}</span></button>`
              : nothing
          }
        </div>
        <div class="meta">
          <span class="status" part="status" role="status" aria-live="polite">${t.status[this.connection]}<span class="sr-only">${this.announcement}</span></span>
          ${this.provenance ? html`<span class="provenance" part="provenance">${this.provenance}</span>` : nothing}
        </div>
      </div>
      ${this.options ? this.menu() : nothing}
      <slot name="end"></slot>
    </div>`;
  }

  // The hint sits in the toggle, hidden from its name: under its label, and a menu holds only items.
  private menu() {
    const open = this.menuOpen;
    return html`<div class="menu-wrap" @focusout=${this.menuFocusOut}>
      <button
        class="menu-button"
        part="menu-button"
        aria-haspopup="menu"
        aria-expanded=${open ? 'true' : 'false'}
        aria-controls=${open ? 'menu' : nothing}
        @click=${() => this.setMenu(!open, !open)}
      >
        ${moreIcon()}<span class="sr-only">${t.conversationMenu}</span>
      </button>
      ${
        open
          ? html`<div class="popup" part="menu" @keydown=${this.menuKeydown}>
            <div id="menu" role="menu" aria-label=${t.conversationMenu}>
              <button
                class="item"
                role="menuitemcheckbox"
                tabindex="-1"
                aria-checked=${this.isPrivate ? 'true' : 'false'}
                aria-describedby="private-hint"
                @click=${() => this.emit('heed-private-change', { private: !this.isPrivate })}
              >
                <span class="check" aria-hidden="true">${this.isPrivate ? '✓' : ''}</span>${t.private}
                <span id="private-hint" class="hint" aria-hidden="true">${t.privateHint}</span>
              </button>
              <button class="item delete" role="menuitem" tabindex="-1" @click=${this.askDelete}>${t.deleteConversation}</button>
            </div>
          </div>`
          : nothing
      }
      <dialog
        role="alertdialog"
        part="confirm"
        aria-labelledby="delete-title"
        aria-describedby="delete-warning"
        @keydown=${(e: Event) => e.stopPropagation()}
        @close=${() => this.confirm?.returnValue === 'delete' && this.emit('heed-delete')}
      >
        <h2 id="delete-title">${t.deleteConversation}</h2>
        <p id="delete-warning">${t.deleteWarning}</p>
        <form method="dialog">
          <button value="cancel" autofocus>${t.cancel}</button>
          <button value="delete" class="danger">${t.delete}</button>
        </form>
      </dialog>
    </div>`;
  }

  /**
   * "Delete conversation": the menu closes, focus on its button (where the dialog gives it back
   * when it closes), and the confirmation opens. Its keys stay in it: Escape cancels it, and only it.
   */
  private readonly askDelete = async () => {
    await this.setMenu(false, false, true);
    if (!this.confirm) return;
    this.confirm.returnValue = '';
    this.confirm.showModal();
  };

  /** Opens (focusing the toggle) or closes the menu; `refocus` puts focus back on its button. */
  private async setMenu(open: boolean, focusItem: boolean, refocus = false) {
    this.menuOpen = open;
    document.removeEventListener('pointerdown', this.outside, true);
    if (open) document.addEventListener('pointerdown', this.outside, true);
    await this.updateComplete;
    if (open && focusItem) this.renderRoot.querySelector<HTMLElement>('[role="menuitemcheckbox"]')?.focus();
    if (refocus) this.renderRoot.querySelector<HTMLElement>('.menu-button')?.focus();
  }

  private menuKeydown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      // the panel closes on Escape; here it only closes the menu
      e.stopPropagation();
      void this.setMenu(false, false, true);
    } else if (['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) {
      // round the items: past the last comes the first
      e.preventDefault();
      const items = [...this.renderRoot.querySelectorAll<HTMLElement>('[role^="menuitem"]')];
      const at = items.indexOf((this.renderRoot as ShadowRoot).activeElement as HTMLElement);
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? -1 : (at + (e.key === 'ArrowDown' ? 1 : -1)) % items.length;
      items.at(to)?.focus();
    }
  }

  /** Tabbing away closes the menu; a click inside it does not. */
  private menuFocusOut(e: FocusEvent) {
    const to = e.relatedTarget as Node | null;
    if (this.menuOpen && to && !this.renderRoot.querySelector('.menu-wrap')?.contains(to)) void this.setMenu(false, false);
  }

  private readonly outside = (e: Event) => {
    const wrap = this.renderRoot.querySelector('.menu-wrap');
    if (wrap && !e.composedPath().includes(wrap)) void this.setMenu(false, false);
  };

  override disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.outside, true);
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('renamable') && !this.renamable) this.draft = null;
    if (changed.has('options') && !this.options && this.menuOpen) void this.setMenu(false, false);
  }

  /** Turns the title into a field holding it, focused with the text selected. */
  async edit(): Promise<void> {
    this.draft = this.label;
    this.invalid = false;
    await this.updateComplete;
    this.input?.focus();
    this.input?.select();
  }

  private keydown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      // the panel closes on Escape; here it only ends the renaming
      e.stopPropagation();
      this.finish('cancel', true);
    } else if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      this.finish('save', true);
    }
  }

  private async finish(how: 'save' | 'cancel', refocus: boolean) {
    if (this.draft === null) return; // already finished (a blur follows Enter or Escape)
    if (how === 'save') {
      const title = titleFromInput(this.input!.value);
      if (!title) return void (this.invalid = true);
      if (title !== this.draft) this.emit('heed-rename', { title });
    }
    this.draft = null;
    if (!refocus) return;
    await this.updateComplete;
    this.renameButton?.focus();
  }
}
