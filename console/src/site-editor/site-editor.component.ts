import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import '../api-keys/api-keys.ts';
import '../intent-rules/intent-rules.ts';
import '../canned-replies/canned-replies.ts';
import '../knowledge-sources/knowledge-sources.ts';
import '../proactive-stats/proactive-stats.ts';
import '../site-delete/site-delete.ts';
import { ATTACHMENT_KIND_NAMES, ATTACHMENT_KINDS, type AttachmentKind } from '../../../api/src/shared/attachment-kinds.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { SiteDeletion, SiteSettings } from '../state/contract.ts';
import { hrefOf } from '../state/route.ts';
import { changedFields, greetingLines, MB, megabytes, siteInput } from '../state/site-form.ts';
import { styles } from './site-editor.styles.ts';
import { counted } from '../state/plural.ts';

const wholeIn = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

/** What a number field must hold, said beside it when it does not. */
const NUMBER_RULES: Record<string, string> = {
  replyMaxTokens: 'A whole number above 0.',
  checkInAfterMinutes: 'A whole number of minutes from 1 to 10080, or blank.',
  unsolicitedPerDay: 'A whole number from 0 to 20.',
  retentionDays: 'A whole number of days from 1 to 3650, or empty to keep conversations.',
};
const sweptAt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A new site's attachment settings: the schema's defaults. */
const ATTACHMENT_DEFAULTS = { kinds: ATTACHMENT_KIND_NAMES as string[], maxBytes: 10 * MB, messageMaxBytes: 20 * MB };
/** The most the editor asks for (MB); the server's own ceiling (ATTACHMENT_MAX_BYTES) may be lower and says so. */
const FILE_MAX_MB = 100;
const MESSAGE_MAX_MB = 250;
/** `PNG`, `PDF`, `Plain text`. */
const kindLabel = (k: AttachmentKind) => ATTACHMENT_KINDS[k].label.charAt(0).toUpperCase() + ATTACHMENT_KINDS[k].label.slice(1);
/** The kinds by the group they are ticked in. */
const KIND_GROUPS: { legend: string; kinds: AttachmentKind[] }[] = [
  { legend: 'Images', kinds: ATTACHMENT_KIND_NAMES.filter((k) => ATTACHMENT_KINDS[k].image) },
  { legend: 'Documents', kinds: ATTACHMENT_KIND_NAMES.filter((k) => !ATTACHMENT_KINDS[k].image) },
];

/**
 * A site's settings (`siteId` null: a new site): name, key (new sites only; generated when
 * blank), allowed origins, identity (required or not; secret generate / rotate, shown once),
 * the assistant's name, greeting, accent colour and launcher position, the system prompt,
 * model and reply token cap; whether the assistant may hand a conversation to a person, the
 * check-in delay and the daily budget of unsolicited messages; what visitors may attach (the
 * kinds, none: off) and how much (the largest file and message, in MB); how many days conversations
 * are kept (empty: kept), with when the retention sweep last ran and what it removed. The embed
 * snippet with "Copy snippet". Owners edit; agents read. Field errors from the server show beside their fields.
 * Changes apply to the next run and the next widget load.
 *
 * An existing site's page also holds its canned replies (`heed-canned-replies`), its intent rules (`heed-intent-rules`), its server API
 * keys (`heed-api-keys`) and the last week of unsolicited messages (`heed-proactive-stats`).
 */
export class HeedSiteEditor extends ConsoleElement {
  static override styles = styles;

  @property({ attribute: false }) siteId: string | null = null;
  @state() private site: SiteSettings | null = null;
  @state() private fields: Record<string, string> = {};
  @state() private error: string | null = null;
  @state() private busy = false;
  @state() private secret: string | null = null;
  @state() private copied = false;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('siteId')) void this.load();
  }

  override render() {
    const s = this.site;
    if (this.siteId && !s)
      return html`<a href=${hrefOf({ view: 'sites' })}>← Sites</a>${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    const readOnly = !this.isOwner;
    return html`<a href=${hrefOf({ view: 'sites' })}>← Sites</a>
      <h1>${s ? s.name : 'New site'}</h1>
      ${readOnly ? html`<p class="muted">Only an owner can change a site.</p>` : nothing}
      ${s ? this.embed(s) : nothing}
      <form @submit=${this.save} novalidate>
        <fieldset ?disabled=${readOnly || this.busy}>
          <legend>Site</legend>
          ${this.text('name', 'Name', s?.name, { required: true })}
          ${s ? html`<p>Site key <code>${s.key}</code></p>` : this.text('key', 'Site key', '', { hint: 'Letters, digits and dashes. Leave blank to generate one.' })}
          ${this.area('allowedOrigins', 'Allowed origins', s?.allowedOrigins.join('\n'), 'One per line, e.g. https://shop.example.com. Pages on other origins cannot load the chat.', 3)}
          <label class="inline"><input type="checkbox" name="requireIdentity" ?checked=${s?.requireIdentity ?? false} /> Require a verified visitor identity</label>
        </fieldset>
        <fieldset ?disabled=${readOnly || this.busy}>
          <legend>Widget</legend>
          ${this.text('assistantName', 'Assistant name', s?.assistantName)}
          ${this.area('greeting', 'Greeting', s?.greeting, 'The first message a visitor sees. It is never sent to the model as the visitor’s words.', 2)}
          ${this.area('greetings', 'Greeting in other languages', greetingLines(s?.greetings), 'One line each: a language code, a colon, the greeting, e.g. de: Hallo! Wie können wir helfen? Visitors in other languages read the greeting above.', 3)}
          ${this.text('accentColor', 'Accent colour', s?.accentColor, { hint: 'A hex colour such as #1a5fd0; blank for the default.', pattern: '#[0-9a-fA-F]{6}' })}
          <label>Launcher position
            <select name="launcherPosition">
              <option value="bottom_right" ?selected=${s?.launcherPosition !== 'bottom_left'}>Bottom right</option>
              <option value="bottom_left" ?selected=${s?.launcherPosition === 'bottom_left'}>Bottom left</option>
            </select>
          </label>
        </fieldset>
        <fieldset ?disabled=${readOnly || this.busy}>
          <legend>Replies</legend>
          ${this.area('systemPrompt', 'System prompt', s?.systemPrompt, 'Instructions the assistant follows on this site; blank for Heed’s default.', 5)}
          ${this.text('model', 'Model', s?.model, { hint: 'Blank for the server’s default model.' })}
          ${this.text('replyMaxTokens', 'Reply token cap', s?.replyMaxTokens?.toString(), { type: 'number', hint: 'Most tokens one reply may use; blank for the default.' })}
        </fieldset>
        <fieldset ?disabled=${readOnly || this.busy}>
          <legend>People and unsolicited messages</legend>
          <label class="inline"><input type="checkbox" name="handoffEnabled" ?checked=${s?.handoffEnabled ?? false} aria-describedby="handoffEnabled-note" /> Let the assistant hand conversations to a person</label>
          <span id="handoffEnabled-note" class="hint">The conversation then waits for a person in the console, and the visitor is told someone will reply.</span>
          <label class="inline"><input type="checkbox" name="autoAssign" ?checked=${s?.autoAssign ?? false} aria-describedby="autoAssign-note" /> Assign hand-offs automatically</label>
          <span id="autoAssign-note" class="hint">Each conversation handed to a person goes to the next agent of this site who has the console open, in turn.</span>
          <label class="inline"><input type="checkbox" name="shareVisitorPages" ?checked=${s?.shareVisitorPages ?? false} aria-describedby="shareVisitorPages-note" /> Show operators the page each visitor is on</label>
          <span id="shareVisitorPages-note" class="hint">The widget reports the page’s address and title as the visitor navigates. Mention it in your privacy policy.</span>
          ${this.number('checkInAfterMinutes', 'Check in after minutes of silence', s?.checkInAfterMinutes, 'Only after a reply that ended with an open question or todo. Blank: never check in.', 1, 10080)}
          ${this.number('unsolicitedPerDay', 'Unsolicited messages per visitor per day', s?.unsolicitedPerDay ?? 2, 'Intents, check-ins and your server’s messages together. 0 turns them off; blank for 2.', 0, 20)}
        </fieldset>
        ${this.attachments(s, readOnly || this.busy)}
        <fieldset ?disabled=${readOnly || this.busy}>
          <legend>Privacy</legend>
          ${this.number('retentionDays', 'Keep conversations for (days)', s?.retentionDays, 'Empty keeps conversations. Otherwise a conversation is deleted, with its files, this many days after its last message.', 1, 3650)}
          ${s ? lastSweep(s) : nothing}
        </fieldset>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${readOnly ? nothing : html`<button type="submit" class="primary" ?disabled=${this.busy}>${s ? 'Save changes' : 'Create site'}</button>`}
      </form>
      ${s && !readOnly ? this.identity(s) : nothing}
      ${
        s
          ? html`<heed-knowledge-sources .api=${this.api} .me=${this.me} .siteId=${s.id}></heed-knowledge-sources>
            <heed-canned-replies .api=${this.api} .me=${this.me} .siteId=${s.id}></heed-canned-replies>
            <heed-intent-rules .api=${this.api} .me=${this.me} .siteId=${s.id}></heed-intent-rules>
            <heed-api-keys .api=${this.api} .me=${this.me} .siteId=${s.id} .siteKey=${s.key}></heed-api-keys>
            <heed-proactive-stats .api=${this.api} .me=${this.me} .siteId=${s.id}></heed-proactive-stats>`
          : nothing
      }
      ${
        s && !readOnly
          ? html`<section class="danger-zone" aria-labelledby="danger-h"><h2 id="danger-h">Delete</h2>
            <heed-site-delete .api=${this.api} .me=${this.me} .siteId=${s.id} .siteKey=${s.key} .siteName=${s.name} @heed-site-deleted=${this.deleted}></heed-site-delete></section>`
          : nothing
      }`;
  }

  private embed(s: SiteSettings) {
    return html`<section aria-labelledby="snippet-h">
      <h2 id="snippet-h">Embed snippet</h2>
      <p class="hint">Paste it before <code>&lt;/body&gt;</code> on every page that should offer the chat.</p>
      <pre id="snippet">${s.snippet}</pre>
      <button type="button" @click=${() => this.copy(s.snippet)}>Copy snippet</button>
      ${this.copied ? html`<span class="ok">Copied</span>` : nothing}
    </section>`;
  }

  private identity(s: SiteSettings) {
    return html`<section aria-labelledby="identity-h">
      <h2 id="identity-h">Identity secret</h2>
      <p class="hint">Your server signs visitors’ user ids with it. ${s.identitySecrets === 0 ? 'None yet.' : `${s.identitySecrets} in use; after a rotation the previous one stays valid as the second.`}</p>
      ${
        this.secret
          ? html`<div class="secret" role="group" aria-label="New identity secret">
            <p><strong>Copy it now: it is shown only once.</strong></p>
            <pre>${this.secret}</pre>
            <button type="button" @click=${() => this.copy(this.secret!)}>Copy secret</button>
          </div>`
          : nothing
      }
      <button type="button" @click=${this.rotate} ?disabled=${this.busy}>${s.identitySecrets === 0 ? 'Generate identity secret' : 'Rotate identity secret'}</button>
    </section>`;
  }

  /** Which kinds visitors may attach, grouped, and the two sizes in MB. */
  private attachments(s: SiteSettings | null, disabled: boolean) {
    const kinds = s?.attachmentKinds ?? ATTACHMENT_DEFAULTS.kinds;
    const err = this.fields.attachmentKinds;
    return html`<fieldset ?disabled=${disabled} aria-describedby="attachmentKinds-note">
      <legend>Attachments</legend>
      <span id="attachmentKinds-note" class=${err ? 'field-error' : 'hint'}>${err ?? 'What visitors may attach to their messages, told from each file’s bytes, not its name. Tick none to turn attachments off.'}</span>
      <div class="kinds">
        ${KIND_GROUPS.map(
          (g) => html`<fieldset ?disabled=${disabled}>
            <legend>${g.legend}</legend>
            ${g.kinds.map(
              (k) => html`<label class="inline"
                ><input type="checkbox" name="attachmentKinds" value=${k} ?checked=${kinds.includes(k)} aria-invalid=${err ? 'true' : 'false'} />
                ${kindLabel(k)}</label
              >`,
            )}
          </fieldset>`,
        )}
      </div>
      ${this.megabytes('attachmentMaxBytes', 'Largest file', s?.attachmentMaxBytes ?? ATTACHMENT_DEFAULTS.maxBytes, `Each file at most this. This server’s own limit (ATTACHMENT_MAX_BYTES, 25 MB unless its operator changed it) applies too.`, FILE_MAX_MB)}
      ${this.megabytes('attachmentMessageMaxBytes', 'Largest message', s?.attachmentMessageMaxBytes ?? ATTACHMENT_DEFAULTS.messageMaxBytes, 'All the files of one message together; at least the largest file.', MESSAGE_MAX_MB)}
    </fieldset>`;
  }

  /** A size in MB: the unit beside the field, read after its name. */
  private megabytes(name: string, label: string, bytes: number, hint: string, max: number) {
    const err = this.fields[name];
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <span class="with-unit">
        <input id=${name} name=${name} type="number" inputmode="decimal" min="0.01" max=${max} step="any" .value=${megabytes(bytes)}
          aria-invalid=${err ? 'true' : 'false'} aria-describedby="${name}-unit ${name}-note" />
        <span id="${name}-unit">MB</span>
      </span>
      <span id="${name}-note" class=${err ? 'field-error' : 'hint'}>${err ?? hint}</span>
    </div>`;
  }

  private text(
    name: string,
    label: string,
    value: string | null | undefined,
    o: { required?: boolean; hint?: string; type?: string; pattern?: string } = {},
  ) {
    const err = this.fields[name];
    return html`<label>${label}
      <input name=${name} type=${o.type ?? 'text'} .value=${value ?? ''} ?required=${o.required} pattern=${o.pattern ?? nothing}
        aria-invalid=${err ? 'true' : 'false'} aria-describedby=${o.hint || err ? `${name}-note` : nothing} />
      ${o.hint || err ? html`<span id="${name}-note" class=${err ? 'field-error' : 'hint'}>${err ?? o.hint}</span>` : nothing}
    </label>`;
  }

  /** A number field whose accessible name is its label alone (the hint is its description). */
  private number(name: string, label: string, value: number | null | undefined, hint: string, min: number, max: number) {
    const err = this.fields[name];
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <input id=${name} name=${name} type="number" inputmode="numeric" min=${min} max=${max} step="1" .value=${value?.toString() ?? ''}
        aria-invalid=${err ? 'true' : 'false'} aria-describedby="${name}-note" />
      <span id="${name}-note" class=${err ? 'field-error' : 'hint'}>${err ?? hint}</span>
    </div>`;
  }

  private area(name: string, label: string, value: string | null | undefined, hint: string, rows: number) {
    const err = this.fields[name];
    return html`<label>${label}
      <textarea name=${name} rows=${rows} .value=${value ?? ''} aria-invalid=${err ? 'true' : 'false'} aria-describedby="${name}-note"></textarea>
      <span id="${name}-note" class=${err ? 'field-error' : 'hint'}>${err ?? hint}</span>
    </label>`;
  }

  private async load() {
    this.site = null;
    this.secret = null;
    this.error = null;
    this.fields = {};
    this.emit('heed-title', { title: null });
    if (!this.siteId) return;
    try {
      this.site = await this.api.site(this.siteId);
      this.emit('heed-title', { title: this.site.name });
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const input = siteInput(new FormData(form), this.site ?? undefined);
    const fields: Record<string, string> = {};
    if (!input.name) fields.name = 'Give the site a name.';
    if (input.replyMaxTokens !== null && !(Number.isInteger(input.replyMaxTokens) && input.replyMaxTokens > 0))
      fields.replyMaxTokens = NUMBER_RULES.replyMaxTokens!;
    if (input.checkInAfterMinutes !== null && !wholeIn(input.checkInAfterMinutes, 1, 10080))
      fields.checkInAfterMinutes = NUMBER_RULES.checkInAfterMinutes!;
    if (!wholeIn(input.unsolicitedPerDay, 0, 20)) fields.unsolicitedPerDay = NUMBER_RULES.unsolicitedPerDay!;
    if (input.retentionDays !== null && !wholeIn(input.retentionDays, 1, 3650)) fields.retentionDays = NUMBER_RULES.retentionDays!;
    // what a browser cannot read as a number reaches the form as blank, and blank means "keep" or "never"
    for (const field of form.querySelectorAll<HTMLInputElement>('input[type=number]'))
      if (field.validity.badInput && !fields[field.name]) fields[field.name] = NUMBER_RULES[field.name] ?? 'A number, please.';
    if (input.accentColor && !/^#[0-9a-f]{6}$/.test(input.accentColor))
      fields.accentColor = 'A colour as # and six hex digits, e.g. #1a5fd0; blank for the default.';
    Object.assign(fields, attachmentSizeErrors(input.attachmentMaxBytes, input.attachmentMessageMaxBytes));
    if (Object.keys(fields).length > 0) return this.flagFields(fields);
    this.busy = true;
    this.error = null;
    try {
      if (this.site) {
        const { key: _key, ...rest } = input;
        this.site = await this.api.updateSite(this.site.id, changedFields(this.site, rest));
        this.announce('Site saved. Changes apply to the next reply and the next widget load.');
      } else {
        const created = await this.api.createSite(input);
        this.announce(`Site ${created.name} created.`);
        location.hash = hrefOf({ view: 'site', siteId: created.id });
      }
    } catch (err) {
      const text = this.failed(err);
      this.error = text.message;
      // the form is enabled again first: a disabled field takes no focus
      this.busy = false;
      if (Object.keys(text.fields).length > 0) await this.flagFields(text.fields);
    } finally {
      this.busy = false;
    }
  }

  /** Field errors beside their fields, the banner by the button saying where, focus on the first. */
  private async flagFields(fields: Record<string, string>) {
    this.fields = fields;
    const count = Object.keys(fields).length;
    this.error = count === 1 ? 'One field above needs a change.' : `${count} fields above need a change.`;
    await this.focusFirstInvalid();
  }

  private async rotate() {
    if (!this.site) return;
    this.busy = true;
    try {
      this.secret = (await this.api.rotateIdentitySecret(this.site.id)).secret;
      this.site = await this.api.site(this.site.id);
      this.announce('New identity secret shown. Copy it now.');
    } catch (err) {
      this.error = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }

  private async copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = true;
      this.announce('Copied to the clipboard.');
    } catch {
      // no clipboard permission: select the text so Ctrl+C copies it
      const pre = this.renderRoot.querySelector('#snippet');
      if (pre) getSelection()?.selectAllChildren(pre);
      this.announce('Copying is blocked here: the snippet is selected, press Control+C.');
    }
  }

  private deleted(e: CustomEvent<{ deleted: SiteDeletion }>) {
    const d = e.detail.deleted;
    this.announce(`Site deleted with ${counted(d.conversations, 'conversation')}.`);
    location.hash = hrefOf({ view: 'sites' });
  }
}

/** When the retention sweep last passed over the site and what it removed; before its first pass, that it has not run. */
function lastSweep(s: SiteSettings) {
  if (!s.retentionSweptAt) return html`<p class="hint" id="retention-sweep">The sweep has not run for this site yet.</p>`;
  const at = new Date(s.retentionSweptAt);
  return html`<p class="hint" id="retention-sweep">
    Last sweep: <time datetime=${at.toISOString()}>${sweptAt.format(at)}</time>, removed ${counted(s.retentionSweptCount, 'conversation')}
  </p>`;
}

/** What is wrong with the attachment sizes (bytes, NaN when the field holds no number), by field. */
function attachmentSizeErrors(fileBytes: number, messageBytes: number): Record<string, string> {
  const inRange = (bytes: number, maxMb: number) => Number.isFinite(bytes) && bytes >= 0.01 * MB && bytes <= maxMb * MB;
  const errors: Record<string, string> = {};
  if (!inRange(fileBytes, FILE_MAX_MB)) errors.attachmentMaxBytes = `A size in MB from 0.01 to ${FILE_MAX_MB}, e.g. 10.`;
  if (!inRange(messageBytes, MESSAGE_MAX_MB)) errors.attachmentMessageMaxBytes = `A size in MB from 0.01 to ${MESSAGE_MAX_MB}, e.g. 20.`;
  else if (!errors.attachmentMaxBytes && messageBytes < fileBytes)
    errors.attachmentMessageMaxBytes = `At least the largest file (${megabytes(fileBytes)} MB): a message must be able to carry one file.`;
  return errors;
}
