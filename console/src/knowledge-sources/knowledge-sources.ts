import { HeedKnowledgeSources } from './knowledge-sources.component.ts';

export { HeedKnowledgeSources };

customElements.get('heed-knowledge-sources') || customElements.define('heed-knowledge-sources', HeedKnowledgeSources);

declare global {
  interface HTMLElementTagNameMap {
    'heed-knowledge-sources': HeedKnowledgeSources;
  }
}
