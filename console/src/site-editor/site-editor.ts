import { HeedSiteEditor } from './site-editor.component.ts';

export { HeedSiteEditor };

customElements.get('heed-site-editor') || customElements.define('heed-site-editor', HeedSiteEditor);

declare global {
  interface HTMLElementTagNameMap {
    'heed-site-editor': HeedSiteEditor;
  }
}
