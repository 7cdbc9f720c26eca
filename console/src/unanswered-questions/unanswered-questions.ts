import { HeedUnansweredQuestions } from './unanswered-questions.component.ts';

export { HeedUnansweredQuestions };

customElements.get('heed-unanswered-questions') || customElements.define('heed-unanswered-questions', HeedUnansweredQuestions);

declare global {
  interface HTMLElementTagNameMap {
    'heed-unanswered-questions': HeedUnansweredQuestions;
  }
}
