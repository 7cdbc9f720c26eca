import { html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { KnowledgeSourceView } from '../state/contract.ts';
import { styles } from '../knowledge-sources/knowledge-sources.styles.ts';

/** As the server bounds them (knowledge/text-sources.ts). */
const QUESTION_MAX = 300;
const ANSWER_MAX = 4000;

/**
 * A site's snippets: a question and the owner's own answer, which the assistant prefers over
 * crawled text that matches as well. Owners add ("Question", "Answer", "Add snippet"), edit
 * (the form takes the snippet, "Save snippet") and remove them; agents read.
 */
export class HeedKnowledgeSnippets extends SiteListElement {
  static override styles = styles;

  @state() private snippets: KnowledgeSourceView[] | null = null;
  @state() private editing: KnowledgeSourceView | null = null;
  @state() private fields: Record<string, string | undefined> = {};
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;
  @query('#snippet-question') private questionField!: HTMLTextAreaElement;

  override render() {
    return html`<h3 id="snippets-h">Snippets</h3>
      <p class="hint">Your own answer to a question visitors ask: it wins over the pages when both match.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.list()}
      ${this.isOwner ? this.form() : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>`;
  }

  private list() {
    if (this.snippets === null) return html`<p class="muted">Loading…</p>`;
    if (this.snippets.length === 0) return html`<p class="muted">No snippets yet.</p>`;
    return html`<ul class="plain items" aria-labelledby="snippets-h">
      ${this.snippets.map(
        (s) => html`<li data-snippet=${s.id}>
          <strong>${s.name}</strong>
          <p class="answer">${s.answer}</p>
          ${this.isOwner ? this.actions(s) : nothing}
        </li>`,
      )}
    </ul>`;
  }

  private actions(s: KnowledgeSourceView) {
    return html`<span class="row-actions">
      <button type="button" aria-label="Edit snippet: ${s.name}" ?disabled=${this.busy} @click=${() => this.edit(s)}>Edit</button>
      <button type="button" class="danger" aria-label="Remove snippet: ${s.name}" ?disabled=${this.busy} @click=${() => this.removeSnippet(s)}>Remove</button>
    </span>`;
  }

  private form() {
    const e = this.editing;
    return html`<form class="stacked" @submit=${this.save} novalidate aria-label=${e ? 'Edit snippet' : 'New snippet'}>
      ${this.field('snippet-question', 'question', 'Question', QUESTION_MAX, e?.name ?? '', 'What a visitor asks, e.g. Do you ship to Iceland?')}
      ${this.field('snippet-answer', 'answer', 'Answer', ANSWER_MAX, e?.answer ?? '', 'What the assistant should know to answer it.')}
      <div class="buttons">
        <button type="submit" class="primary" ?disabled=${this.busy}>${e ? 'Save snippet' : 'Add snippet'}</button>
        ${e ? html`<button type="button" @click=${() => this.edit(null)}>Cancel</button>` : nothing}
      </div>
    </form>`;
  }

  private field(id: string, name: string, label: string, max: number, value: string, hint: string) {
    const error = this.fields[name];
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <textarea id=${id} name=${name} rows=${name === 'answer' ? 4 : 2} maxlength=${max} .value=${value}
        aria-invalid=${error ? 'true' : 'false'} aria-describedby="${id}-note"></textarea>
      <span id="${id}-note" class=${error ? 'field-error' : 'hint'}>${error ?? hint}</span>
    </div>`;
  }

  private async edit(s: KnowledgeSourceView | null) {
    this.editing = s;
    this.fields = {};
    await this.updateComplete;
    this.questionField?.focus();
  }

  protected async load() {
    try {
      this.snippets = (await this.api.knowledgeSources(this.siteId)).filter((s) => s.kind === 'snippet');
      this.error = null;
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const question = String(data.get('question') ?? '').trim();
    const answer = String(data.get('answer') ?? '').trim();
    this.fields = { question: question ? undefined : 'Write the question.', answer: answer ? undefined : 'Write the answer.' };
    if (!question || !answer) return this.focusFirstInvalid();
    const id = this.editing?.id;
    const failure = await this.change(
      () => this.api.saveSnippet(this.siteId, { ...(id ? { id } : {}), question, answer }),
      id ? 'Snippet saved.' : 'Snippet added.',
    );
    this.fields = { question: failure?.fields.question, answer: failure?.fields.answer };
    if (!failure) {
      this.editing = null;
      form.reset();
    }
  }

  private async removeSnippet(s: KnowledgeSourceView) {
    const yes = await this.confirmDialog.ask({
      title: 'Remove this snippet?',
      text: `The assistant no longer knows your answer to “${s.name}”.`,
      confirm: 'Remove snippet',
    });
    if (yes) await this.change(() => this.api.removeKnowledgeSource(s.id), 'Snippet removed.');
  }
}
