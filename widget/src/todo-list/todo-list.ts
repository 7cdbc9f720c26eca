import { HeedTodoList } from './todo-list.component.ts';
import { define } from '../shared/define.ts';

export { HeedTodoList };

define('heed-todo-list', HeedTodoList);

declare global {
  interface HTMLElementTagNameMap {
    'heed-todo-list': HeedTodoList;
  }
}
