import { property } from 'lit/decorators.js';
import { HeedElement } from '../../../widget/src/shared/heed-element.ts';
import type { ConsoleApi } from '../state/console-api.ts';
import { errorText, type ErrorText } from '../state/error-text.ts';
import type { Me } from '../state/contract.ts';

/**
 * The base of the console's views: the API client and the signed-in operator come in as
 * properties from the app; `announce()` asks the app's one live region to speak;
 * `failed()` turns any error into text, and a lost session into `heed-signed-out`.
 *
 * @event heed-announce - Text for the live region. `detail: { text }`.
 * @event heed-signed-out - The session is gone; the app shows the sign-in.
 * @event heed-title - The view's own part of the document title. `detail: { title }`.
 */
export class ConsoleElement extends HeedElement {
  @property({ attribute: false }) api!: ConsoleApi;
  @property({ attribute: false }) me: Me | null = null;

  protected announce(text: string): void {
    this.emit('heed-announce', { text });
  }

  protected failed(err: unknown): ErrorText {
    const text = errorText(err);
    if (text.signedOut) this.emit('heed-signed-out');
    return text;
  }

  /** Once the view shows its field errors, focus moves to the first field marked invalid. */
  protected async focusFirstInvalid(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  protected get isOwner(): boolean {
    return this.me?.role === 'owner';
  }
}
