import { HeedSiteDelete } from './site-delete.component.ts';

export { HeedSiteDelete };

customElements.get('heed-site-delete') || customElements.define('heed-site-delete', HeedSiteDelete);

declare global {
  interface HTMLElementTagNameMap {
    'heed-site-delete': HeedSiteDelete;
  }
}
