import { HeedKnowledgeFiles } from './knowledge-files.component.ts';

export { HeedKnowledgeFiles };

customElements.get('heed-knowledge-files') || customElements.define('heed-knowledge-files', HeedKnowledgeFiles);

declare global {
  interface HTMLElementTagNameMap {
    'heed-knowledge-files': HeedKnowledgeFiles;
  }
}
