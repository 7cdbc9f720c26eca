import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ModelFlag, ModelStatus } from '../state/contract.ts';
import { styles } from './model-status.styles.ts';

/**
 * The model server as Heed found it: per model in use (the deployment's replies, titles, a
 * site's own), the parameters the server does not take and what that turns off — declared in
 * `OPENAI_COMPAT` or learned from the server's refusal, in the provider's own words. A model
 * without tools still answers; this is where an operator learns that questions and todos are off.
 */
export class HeedModelStatus extends ConsoleElement {
  static override styles = styles;

  @state() private status: ModelStatus | null = null;
  @state() private error: string | null = null;

  override connectedCallback() {
    super.connectedCallback();
    this.api
      .modelStatus()
      .then((s) => (this.status = s))
      .catch((err) => (this.error = this.failed(err).message));
  }

  override render() {
    const s = this.status;
    return html`<section aria-labelledby="model-h">
      <h2 id="model-h">Model server</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${s === null && !this.error ? html`<p class="muted">Loading…</p>` : nothing}
      ${s ? html`<p class="muted" data-server>${s.server}</p>${s.models.map((m) => this.model(m))}` : nothing}
    </section>`;
  }

  private model(m: ModelStatus['models'][number]) {
    const off = m.flags.filter((f) => f.featuresOff).length;
    return html`<div class="card" data-model=${m.model}>
      <h3>${m.model}</h3>
      <p class="muted">${m.usedBy.length > 0 ? `Used by: ${m.usedBy.join(', ')}` : 'Not in use now'}</p>
      ${
        m.flags.length === 0
          ? html`<p class="ok">Every feature is on.</p>`
          : html`<p>${off > 0 ? `Features off for this model: ${off}` : 'Every feature is on; some parameters are sent another way.'}</p>
            <ul>${m.flags.map((f) => this.flag(f))}</ul>`
      }
    </div>`;
  }

  private flag(f: ModelFlag) {
    return html`<li data-flag=${f.flag}>
      <strong class=${f.featuresOff ? 'off' : ''}>${f.featuresOff ? 'Off' : 'Adjusted'}: ${f.parameter}</strong> — ${f.consequence}
      <span class="muted why">${whyText(f)}</span>
    </li>`;
  }
}

/** Where a flag comes from, in a sentence an operator can act on. */
export function whyText(f: ModelFlag): string {
  if (f.source === 'declared') return `Set by OPENAI_COMPAT=${f.flag}.`;
  const said = f.providerMessage ? ` The server said: “${f.providerMessage}”` : '';
  const seen = f.seenAt ? ` Last learned ${new Date(f.seenAt).toLocaleString()}.` : '';
  return `Learned when the server refused ${f.parameter}.${said}${seen} Once the server takes it, restart Heed's processes to ask with it again.`;
}
