import { HeedKnowledgeSnippets } from './knowledge-snippets.component.ts';

export { HeedKnowledgeSnippets };

customElements.get('heed-knowledge-snippets') || customElements.define('heed-knowledge-snippets', HeedKnowledgeSnippets);

declare global {
  interface HTMLElementTagNameMap {
    'heed-knowledge-snippets': HeedKnowledgeSnippets;
  }
}
