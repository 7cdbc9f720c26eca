import { html } from 'lit';
import { query, state } from 'lit/decorators.js';
import { HeedElement } from '../../../widget/src/shared/heed-element.ts';
import { styles } from './confirm-dialog.styles.ts';

/** What a confirmation asks. */
export interface ConfirmQuestion {
  /** the dialog's heading, e.g. "Delete viewed_pricing?" */
  title: string;
  /** what happens, in a sentence */
  text: string;
  /** the confirming button's text, e.g. "Delete" */
  confirm: string;
}

/**
 * A modal confirmation for a destructive action: `await dialog.ask({ title, text, confirm })`
 * is true when the operator presses the confirming button, false on "Cancel" or Escape. A
 * native `<dialog>`: focus moves into it and stays there, Escape closes it, and focus returns
 * to what opened it. Cancel is focused first, so Enter alone never destroys anything.
 *
 * @example if (await this.confirmDialog.ask({ title: 'Revoke Billing?', text: '…', confirm: 'Revoke' })) …
 */
export class HeedConfirmDialog extends HeedElement {
  static override styles = styles;

  @state() private question: ConfirmQuestion = { title: '', text: '', confirm: 'OK' };
  @query('dialog') private dialog!: HTMLDialogElement;
  private answer?: (yes: boolean) => void;

  override render() {
    const q = this.question;
    return html`<dialog aria-labelledby="confirm-h" aria-describedby="confirm-text" @close=${this.closed}>
      <form method="dialog">
        <h2 id="confirm-h">${q.title}</h2>
        <p id="confirm-text">${q.text}</p>
        <div class="row-actions">
          <button type="submit" value="yes" class="danger">${q.confirm}</button>
          <button type="submit" value="no" autofocus>Cancel</button>
        </div>
      </form>
    </dialog>`;
  }

  /** Opens the dialog; resolves with the operator's answer. */
  async ask(question: ConfirmQuestion): Promise<boolean> {
    this.answer?.(false);
    this.question = question;
    await this.updateComplete;
    this.dialog.returnValue = '';
    this.dialog.showModal();
    return new Promise((resolve) => (this.answer = resolve));
  }

  private closed() {
    // a close event is queued: one from an earlier question can arrive after the next opened
    if (this.dialog.open) return;
    const answer = this.answer;
    this.answer = undefined;
    answer?.(this.dialog.returnValue === 'yes');
  }
}
