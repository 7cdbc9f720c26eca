import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { expandIcon } from '../shared/panel-icons.ts';
import type { TodoView } from '../state/types.ts';
import { styles } from './todo-list.styles.ts';

/**
 * What the assistant still has to do in this conversation, under the heading: a
 * disclosure button "Open tasks (N)" (with `aria-expanded`) that shows or hides the list.
 * Collapsed at first, so the thread keeps its room; renders nothing without open tasks.
 *
 * @csspart toggle - The disclosure button.
 * @csspart list - The list of tasks.
 *
 * @cssproperty --heed-todo-background - Background of the bar.
 */
export class HeedTodoList extends HeedElement {
  static override styles = styles;
  static override properties = {
    todos: { attribute: false },
    expanded: { state: true },
  };

  todos: readonly TodoView[] = [];
  expanded = false;

  override render() {
    if (this.todos.length === 0) return nothing;
    return html`<div class="bar">
      <button part="toggle" aria-expanded=${this.expanded ? 'true' : 'false'} aria-controls="todos" @click=${() => (this.expanded = !this.expanded)}>
        ${expandIcon()}${t.openTasks(this.todos.length)}
      </button>
      <ul id="todos" part="list" ?hidden=${!this.expanded}>
        ${repeat(
          this.todos,
          (t) => t.id,
          (t) => html`<li>${t.text}</li>`,
        )}
      </ul>
    </div>`;
  }
}
