import { html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { IntentRuleView } from '../state/contract.ts';
import { styles } from './intent-rules.styles.ts';

/** What the host page may name (the server's INTENT_NAME, checked here for a quick answer). */
const INTENT_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

type Kind = 'instruction' | 'fixed';

/**
 * A site's intent rules: what happens when the host page calls `Heed('intent', name)`. Each
 * rule has the name the page fires, the words that complete the visitor's provenance label
 * ("Because you viewed Pricing"), and either an instruction for the assistant (a normal run
 * writes the message) or a fixed message (said as is), and is on or off. Owners add, edit,
 * turn on and off, and delete (after a confirmation); agents read. Field errors from the
 * server show beside their fields.
 */
export class HeedIntentRules extends SiteListElement {
  static override styles = styles;

  @state() private rules: IntentRuleView[] | null = null;
  @state() private editing: IntentRuleView | 'new' | null = null;
  @state() private kind: Kind = 'instruction';
  @state() private fields: Record<string, string> = {};
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;

  override render() {
    return html`<section aria-labelledby="intents-h">
      <h2 id="intents-h">Intents</h2>
      <p class="hint">
        Your page calls <code>Heed('intent', 'viewed_pricing')</code>; the rule of that name decides what the visitor is told, labelled “Because you …”.
        Unknown or turned-off intents are ignored and counted below.
      </p>
      ${this.error && !this.editing ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.rules === null ? html`<p class="muted">Loading…</p>` : this.rules.length === 0 ? html`<p class="muted">No intent rules yet.</p>` : this.table(this.rules)}
      ${this.isOwner && this.editing === null ? html`<button type="button" @click=${() => this.edit('new')}>Add intent</button>` : nothing}
      ${this.editing !== null ? this.form(this.editing) : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>
    </section>`;
  }

  private table(rules: IntentRuleView[]) {
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Intents table"><table>
      <thead><tr><th>Name</th><th>Label</th><th>Says</th><th>Enabled</th>${this.isOwner ? html`<th><span class="sr-only">Actions</span></th>` : nothing}</tr></thead>
      <tbody>${rules.map(
        (r) => html`<tr data-rule=${r.name}>
          <td><code>${r.name}</code></td>
          <td>Because you ${r.label}</td>
          <td class="says"><span class="kind">${r.fixedMessage !== null ? 'Fixed message' : 'Instruction for the assistant'}:</span> ${r.fixedMessage ?? r.instruction}</td>
          <td>${
            this.isOwner
              ? html`<input type="checkbox" aria-label="${r.name} enabled" .checked=${r.enabled} ?disabled=${this.busy} @change=${(e: Event) => this.toggle(r, (e.target as HTMLInputElement).checked)} />`
              : r.enabled
                ? 'Yes'
                : 'No'
          }</td>
          ${
            this.isOwner
              ? html`<td class="row-actions">
                <button type="button" aria-label="Edit ${r.name}" @click=${() => this.edit(r)}>Edit</button>
                <button type="button" class="danger" aria-label="Delete ${r.name}" @click=${() => this.removeRule(r)}>Delete</button>
              </td>`
              : nothing
          }
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private form(r: IntentRuleView | 'new') {
    const rule = r === 'new' ? null : r;
    const f = this.fields;
    const note = (name: string, hint: string) =>
      html`<span id="${name}-note" class=${f[name] ? 'field-error' : 'hint'}>${f[name] ?? hint}</span>`;
    return html`<form class="card" @submit=${this.save} novalidate aria-labelledby="intent-form-h">
      <h3 id="intent-form-h">${rule ? `Edit ${rule.name}` : 'New intent'}</h3>
      <div class="field">
        <label for="intent-name">Name</label>
        <input id="intent-name" name="name" autocomplete="off" spellcheck="false" maxlength="64" .value=${rule?.name ?? ''} aria-invalid=${f.name ? 'true' : 'false'} aria-describedby="name-note" />
        ${note('name', 'What your page passes: letters, digits, _ . and -, e.g. viewed_pricing.')}
      </div>
      <div class="field">
        <label for="intent-label">Because you …</label>
        <input id="intent-label" name="label" maxlength="80" .value=${rule?.label ?? ''} aria-invalid=${f.label ? 'true' : 'false'} aria-describedby="label-note" />
        ${note('label', 'Completes the label the visitor sees, e.g. “viewed Pricing”.')}
      </div>
      <fieldset class="kinds">
        <legend>What happens</legend>
        <label class="inline"><input type="radio" name="kind" value="instruction" .checked=${this.kind === 'instruction'} @change=${() => (this.kind = 'instruction')} /> Instruction for the assistant</label>
        <label class="inline"><input type="radio" name="kind" value="fixed" .checked=${this.kind === 'fixed'} @change=${() => (this.kind = 'fixed')} /> Fixed message</label>
      </fieldset>
      <div class="field">
        <label for="intent-text">${this.kind === 'instruction' ? 'Instruction' : 'Message'}</label>
        <textarea id="intent-text" name="text" rows="3" maxlength="2000" .value=${rule?.fixedMessage ?? rule?.instruction ?? ''} aria-invalid=${f.text ? 'true' : 'false'} aria-describedby="text-note"></textarea>
        ${note('text', this.kind === 'instruction' ? 'What the assistant should do, e.g. “Offer to compare the plans.” The visitor never sees it.' : 'Said to the visitor as is, without the assistant.')}
      </div>
      <label class="inline"><input type="checkbox" name="enabled" .checked=${rule?.enabled ?? true} /> Enabled</label>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="row-actions">
        <button type="submit" class="primary" ?disabled=${this.busy}>Save intent</button>
        <button type="button" @click=${this.cancel}>Cancel</button>
      </div>
    </form>`;
  }

  protected async load() {
    try {
      this.rules = await this.api.intentRules(this.siteId);
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async edit(r: IntentRuleView | 'new') {
    this.editing = r;
    this.kind = r !== 'new' && r.fixedMessage !== null ? 'fixed' : 'instruction';
    this.fields = {};
    this.error = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#intent-name')?.focus();
  }

  private async cancel() {
    const rule = this.editing;
    this.editing = null;
    this.error = null;
    await this.updateComplete;
    const back = rule && rule !== 'new' ? `button[aria-label="Edit ${CSS.escape(rule.name)}"]` : 'section > button';
    this.renderRoot.querySelector<HTMLElement>(back)?.focus();
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const [name, label, text] = [value('name'), value('label'), value('text')];
    const fields: Record<string, string> = {};
    if (!INTENT_NAME.test(name)) fields.name = 'Letters, digits, _ . and - only (1–64), starting with a letter or digit.';
    if (!label) fields.label = 'Say what the visitor did, e.g. “viewed Pricing”.';
    if (!text) fields.text = this.kind === 'instruction' ? 'Write the instruction.' : 'Write the message.';
    this.fields = fields;
    if (Object.keys(fields).length > 0) {
      this.error = 'Some fields need a change.';
      return;
    }
    const rule = this.editing === 'new' ? null : this.editing;
    const input = {
      siteId: this.siteId,
      ...(rule ? { id: rule.id } : {}),
      name,
      label,
      instruction: this.kind === 'instruction' ? text : null,
      fixedMessage: this.kind === 'fixed' ? text : null,
      enabled: form.get('enabled') === 'on',
    };
    const saved = await this.call(() => this.api.saveIntentRule(input), rule ? `Intent ${name} saved.` : `Intent ${name} added.`);
    if (saved) await this.cancel();
  }

  private toggle(r: IntentRuleView, enabled: boolean) {
    const { createdAt: _c, updatedAt: _u, ...rule } = r;
    return this.call(
      () => this.api.saveIntentRule({ ...rule, siteId: this.siteId, enabled }),
      `Intent ${r.name} turned ${enabled ? 'on' : 'off'}.`,
    );
  }

  private async removeRule(r: IntentRuleView) {
    const yes = await this.confirmDialog.ask({
      title: `Delete ${r.name}?`,
      text: `Intents named ${r.name} are ignored from then on. Messages already sent keep their label.`,
      confirm: 'Delete intent',
    });
    if (yes) await this.call(() => this.api.removeIntentRule(this.siteId, r.id), `Intent ${r.name} deleted.`);
  }

  /** One change, then the list again; field errors go beside their fields (the text's under one name). */
  private async call(run: () => Promise<unknown>, done: string): Promise<boolean> {
    const failure = await this.change(run, done);
    if (!failure) return true;
    const { instruction, fixedMessage, ...rest } = failure.fields;
    const about = instruction ?? fixedMessage;
    this.fields = about ? { ...rest, text: about } : rest;
    if (!this.editing) await this.load();
    return false;
  }
}
