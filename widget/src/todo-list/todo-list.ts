import { HeedTodoList } from './todo-list.component.ts';

export { HeedTodoList };

customElements.get('heed-todo-list') || customElements.define('heed-todo-list', HeedTodoList);

declare global {
  interface HTMLElementTagNameMap {
    'heed-todo-list': HeedTodoList;
  }
}
