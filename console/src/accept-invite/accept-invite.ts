import { HeedAcceptInvite } from './accept-invite.component.ts';

export { HeedAcceptInvite };

customElements.get('heed-accept-invite') || customElements.define('heed-accept-invite', HeedAcceptInvite);

declare global {
  interface HTMLElementTagNameMap {
    'heed-accept-invite': HeedAcceptInvite;
  }
}
