import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ErasureResult } from '../state/contract.ts';
import { erasedText, erasureQuestion } from './erasure-text.ts';
import { styles } from './visitor-erase.styles.ts';

/** What `heed-visitor-erasing` carries: the erasure under way, settled true once it is done, false when it failed. */
export interface ErasingDetail {
  conversationId: string;
  done: Promise<boolean>;
}

/** What `heed-visitor-erased` carries. */
export interface ErasedDetail {
  conversationId: string;
  result: ErasureResult;
}

/**
 * "Delete visitor data…" for a conversation's visitor (the owner's: the server refuses agents).
 * It asks what would go (`console.visitors.erasure`) and confirms with those counts in a modal
 * dialog, Cancel first; then erases, says what went through the live region, and tells the
 * page, which leaves the conversation (it no longer exists).
 *
 * `heed-visitor-erasing` comes before the answer: the removals of the visitor's conversations
 * reach the live list while the server is still answering, and the page must not tear this
 * element down before it can say what happened.
 *
 * @event heed-visitor-erasing - Confirmed; the erasure is under way. `detail: ErasingDetail`.
 * @event heed-visitor-erased - The visitor's data is gone. `detail: ErasedDetail`.
 * @event heed-announce - What was deleted, for the live region.
 * @csspart erase - The "Delete visitor data…" button.
 */
export class HeedVisitorErase extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  /** asking or erasing: another press waits for it */
  private busy = false;
  @state() private error: string | null = null;
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;

  override render() {
    // never disabled: focus returns to it when the dialog closes, and a disabled button drops it
    return html`<button type="button" class="danger" part="erase" aria-describedby=${this.error ? 'erase-error' : nothing} @click=${this.start}>Delete visitor data…</button>
      ${this.error ? html`<p id="erase-error" class="error" role="alert">${this.error}</p>` : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>`;
  }

  private async start() {
    if (this.busy) return;
    const asked = this.conversationId;
    this.busy = true;
    this.error = null;
    let settle = (_erased: boolean) => {};
    try {
      const erasure = await this.api.visitorErasure(asked);
      if (!(await this.confirmDialog.ask(erasureQuestion(erasure)))) return;
      // told before the call: its removals may come before its answer
      const done = new Promise<boolean>((resolve) => (settle = resolve));
      this.emit<ErasingDetail>('heed-visitor-erasing', { conversationId: asked, done });
      const result = await this.api.eraseVisitor(asked);
      settle(true);
      this.announce(erasedText(result));
      this.emit<ErasedDetail>('heed-visitor-erased', { conversationId: asked, result });
    } catch (err) {
      settle(false);
      this.error = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }
}
