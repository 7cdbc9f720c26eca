import { HeedSignIn } from './sign-in.component.ts';

export { HeedSignIn };

customElements.get('heed-sign-in') || customElements.define('heed-sign-in', HeedSignIn);

declare global {
  interface HTMLElementTagNameMap {
    'heed-sign-in': HeedSignIn;
  }
}
