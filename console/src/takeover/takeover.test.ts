/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './takeover.ts';
import type { HeedConsoleTakeover } from './takeover.component.ts';
import type { AttachmentView, Holder } from '../state/contract.ts';
import { UploadRefusal } from '../state/upload.ts';
import { attachment, fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

const ana: Holder = { id: owner.id, name: 'Ana' };

async function takeover(heldBy: Holder | null, over: Parameters<typeof fakeConsoleApi>[0] = {}, isPrivate = false) {
  const fake = fakeConsoleApi(over);
  const changed: unknown[] = [];
  const el = await fixture<HeedConsoleTakeover>(
    html`<heed-console-takeover .api=${fake.api} .me=${owner} conversationId="c-1" .heldBy=${heldBy} .isPrivate=${isPrivate} @heed-conversation-changed=${(e: CustomEvent) => changed.push(e.detail)}></heed-console-takeover>`,
  );
  const root = el.shadowRoot!;
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === text) ?? null;
  return { el, root, fake, changed, button };
}

const boxLabel = (root: ShadowRoot) => root.querySelector('label[for=compose]')?.textContent ?? null;

const png = (name: string, bytes = 1200) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

function transfer(files: File[]): DataTransfer {
  const data = new DataTransfer();
  for (const f of files) data.items.add(f);
  return data;
}

/** Pastes files into the box, as Control+V with a screenshot on the clipboard does. */
const paste = (box: HTMLTextAreaElement, ...files: File[]) =>
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer(files), bubbles: true, composed: true, cancelable: true }));

/** Drags files over the reply box and drops them. */
function drop(target: Element, ...files: File[]) {
  const dataTransfer = transfer(files);
  for (const type of ['dragenter', 'dragover', 'drop'])
    target.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, composed: true, cancelable: true }));
}

/** The reply's files: their chips, their refusals. */
const filesOf = (root: ShadowRoot) => root.querySelector('heed-reply-attachments')!.shadowRoot!;

/** An upload the test lets finish: it reports 40 % and waits for `finish()`. */
function heldUpload() {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const upload = async (_conversationId: string, file: File, o: { onProgress?: (share: number) => void } = {}): Promise<AttachmentView> => {
    o.onProgress?.(0.4);
    await finished;
    return attachment({ id: `id-${file.name}`, name: file.name, bytes: file.size });
  };
  return { upload, finish: () => finish() };
}

describe('heed-console-takeover', () => {
  it('offers "Take over" while the assistant answers, and asks for a reload once taken', async () => {
    const { root, fake, changed, button } = await takeover(null);
    // no reply before the hold: the box writes a note
    expect(boxLabel(root)).to.equal('Note');
    expect(button('Send')).to.equal(null);
    button('Take over')!.click();
    await waitUntil(() => changed.length === 1);
    expect(fake.callsOf('takeOver')).to.deep.equal([['c-1']]);
  });

  it('focuses the Reply box once the hold is this operator’s', async () => {
    const { el, root, button, changed } = await takeover(null);
    button('Take over')!.click();
    await waitUntil(() => changed.length === 1);
    el.heldBy = ana;
    await el.updateComplete;
    expect(root.activeElement).to.equal(root.querySelector('textarea'));
  });

  it('sends a reply with one clientMessageId, kept for a resend after a failure and fresh after success', async () => {
    let fail = true;
    const { root, fake, button, changed } = await takeover(ana, {
      reply: async (input) => {
        if (fail) throw refusal('INTERNAL_SERVER_ERROR', null, 'Try again.');
        return {
          id: 'm9',
          role: 'operator',
          content: input.text,
          provenance: 'operator',
          provenanceLabel: 'Ana',
          state: null,
          error: null,
          createdAt: '2026-01-01T10:00:00Z',
          runId: null,
          attachments: [],
        };
      },
    });
    expect(root.querySelector('.held')!.textContent).to.contain('Held by Ana');
    const box = root.querySelector('textarea')!;
    expect(box.labels![0]!.textContent).to.equal('Reply');
    box.value = 'Hello, I can help.';
    button('Send')!.click();
    await waitUntil(() => root.querySelector('[role=alert]'));
    fail = false;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, composed: true }));
    await waitUntil(() => box.value === '');
    const [first, second] = fake.callsOf('reply').map(([input]) => input as { text: string; clientMessageId: string });
    expect(second!.text).to.equal('Hello, I can help.');
    expect(second!.clientMessageId).to.equal(first!.clientMessageId);
    box.value = 'Anything else?';
    button('Send')!.click();
    await waitUntil(() => fake.callsOf('reply').length === 3 && box.value === '');
    expect((fake.callsOf('reply')[2]![0] as { clientMessageId: string }).clientMessageId).to.not.equal(first!.clientMessageId);
    expect(changed.length).to.be.greaterThan(1);
  });

  it('refuses to send nothing, and hands back, focus landing on "Take over"', async () => {
    const { el, root, fake, button } = await takeover(ana);
    button('Send')!.click();
    await waitUntil(() => root.querySelector('[role=alert]'));
    expect(root.querySelector('[role=alert]')!.textContent).to.equal('Write a reply first.');
    expect(fake.callsOf('reply')).to.have.length(0);
    button('Hand back')!.click();
    await waitUntil(() => fake.callsOf('handBack').length === 1);
    el.heldBy = null;
    await el.updateComplete;
    expect(root.activeElement).to.equal(button('Take over'));
  });

  it('shows who holds it when another operator does, with a note box but no reply box, and only an owner may hand it back', async () => {
    const { root, button } = await takeover({ id: 'op-7', name: 'Ben' });
    expect(root.querySelector('.held')!.textContent!.trim()).to.equal('Held by Ben');
    expect(boxLabel(root)).to.equal('Note');
    expect(root.querySelector('[role=radiogroup]')).to.equal(null);
    expect(button('Take over')).to.equal(null);
    expect(button('Hand back')).to.exist;
    const agent = await fixture<HeedConsoleTakeover>(
      html`<heed-console-takeover .api=${fakeConsoleApi().api} .me=${{ ...owner, role: 'agent' }} conversationId="c-1" .heldBy=${{ id: 'op-7', name: 'Ben' }}></heed-console-takeover>`,
    );
    expect(agent.shadowRoot!.querySelector('button:not([type=submit])')).to.equal(null);
  });

  it('shows held_by_other and not_holding inline, and asks for a reload', async () => {
    const taken = await takeover(null, {
      takeOver: async () => Promise.reject(refusal('CONFLICT', 'held_by_other', 'Ben has already taken this conversation over.')),
    });
    taken.button('Take over')!.click();
    await waitUntil(() => taken.root.querySelector('[role=alert]'));
    expect(taken.root.querySelector('[role=alert]')!.textContent).to.equal('Ben has already taken this conversation over.');
    expect(taken.changed).to.have.length(1);
    const lost = await takeover(ana, {
      reply: async () => Promise.reject(refusal('CONFLICT', 'not_holding', 'Take this conversation over before you reply.')),
    });
    lost.root.querySelector('textarea')!.value = 'Still there?';
    lost.button('Send')!.click();
    await waitUntil(() => lost.root.querySelector('[role=alert]'));
    expect(lost.root.querySelector('[role=alert]')!.textContent).to.equal('Take this conversation over before you reply.');
    expect(lost.root.querySelector('textarea')!.value).to.equal('Still there?');
  });

  it('offers no take-over on a private conversation, only a note', async () => {
    const { root, button } = await takeover(null, {}, true);
    expect(button('Take over')).to.equal(null);
    expect(root.textContent).to.contain('cannot be taken over');
    expect(boxLabel(root)).to.equal('Note');
  });

  it('adds an internal note, and the holder switches between reply and note', async () => {
    const { root, fake, button, changed } = await takeover(ana);
    expect(boxLabel(root)).to.equal('Reply');
    root.querySelector<HTMLInputElement>('input[value=note]')!.click();
    await waitUntil(() => boxLabel(root) === 'Note');
    root.querySelector('textarea')!.value = 'Wholesale customer';
    button('Add note')!.click();
    await waitUntil(() => changed.length === 1);
    expect(fake.callsOf('addNote')).to.deep.equal([['c-1', 'Wholesale customer']]);
    expect(fake.callsOf('reply')).to.deep.equal([]);
    expect(root.querySelector('textarea')!.value).to.equal('');
  });

  it('inserts a canned reply from the list that / opens, chosen with the arrow keys', async () => {
    const canned = [
      { id: 'r1', shortcut: 'refund', content: 'Refunds take 5 days.', updatedAt: '2026-01-01T00:00:00Z' },
      { id: 'r2', shortcut: 'returns', content: 'Send it back within 30 days.', updatedAt: '2026-01-01T00:00:00Z' },
    ];
    const fake = fakeConsoleApi({ cannedReplies: async () => canned });
    const el = await fixture<HeedConsoleTakeover>(
      html`<heed-console-takeover .api=${fake.api} .me=${owner} conversationId="c-1" siteId="site-1" .heldBy=${ana}></heed-console-takeover>`,
    );
    const root = el.shadowRoot!;
    const box = root.querySelector('textarea')!;
    box.focus();
    box.value = 'Hello! /re';
    box.setSelectionRange(10, 10);
    box.dispatchEvent(new InputEvent('input'));
    await waitUntil(() => root.querySelectorAll('[role=option]').length === 2, 'the list of matches');
    expect(fake.callsOf('cannedReplies')).to.deep.equal([['site-1']]);
    expect(box.getAttribute('aria-activedescendant')).to.equal('canned-0');
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(box.getAttribute('aria-activedescendant')).to.equal('canned-1');
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    expect(box.value).to.equal('Hello! Send it back within 30 days.');
    expect(root.querySelector('[role=listbox]')).to.equal(null);
  });

  it('sends a reply of a pasted file alone, once it has uploaded, carrying its id', async () => {
    const held = heldUpload();
    const { root, fake, button } = await takeover(ana, { uploadAttachment: held.upload });
    const box = root.querySelector('textarea')!;
    const file = png('screenshot.png');
    paste(box, file);
    const files = filesOf(root);
    await waitUntil(() => files.querySelector('progress'), 'the upload shows');
    const progress = files.querySelector('progress')!;
    expect([progress.value, progress.getAttribute('aria-label')]).to.deep.equal([40, 'Uploading screenshot.png']);
    expect(files.querySelector('.chip')!.textContent).to.contain('screenshot.png').and.contain('1 KB');
    expect(fake.callsOf('uploadAttachment')[0]!.slice(0, 2)).to.deep.equal(['c-1', file]);
    button('Send')!.click();
    await waitUntil(() => root.querySelector('[role=alert]'));
    expect(root.querySelector('[role=alert]')!.textContent).to.equal('Wait until the files have uploaded, then send.');
    expect(fake.callsOf('reply')).to.have.length(0);
    held.finish();
    await waitUntil(() => files.querySelector('.chip[data-state=attached]'), 'uploaded');
    // Escape would close the conversation: not with files attached
    const pressEscape = () =>
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true, cancelable: true }));
    expect(pressEscape()).to.be.false;
    button('Send')!.click();
    await waitUntil(() => fake.callsOf('reply').length === 1);
    expect(fake.callsOf('reply')[0]![0]).to.deep.include({ conversationId: 'c-1', text: '', attachmentIds: ['id-screenshot.png'] });
    await waitUntil(() => files.querySelector('.chip') === null, 'the files go with the reply');
    expect(pressEscape()).to.be.true;
  });

  it('says why a dropped file was refused, leaving it out and the draft as it was', async () => {
    const { root, fake, button } = await takeover(ana, {
      uploadAttachment: async () => Promise.reject(new UploadRefusal('file_too_large', 413, { limitBytes: 5 * 1024 * 1024 })),
    });
    const box = root.querySelector('textarea')!;
    box.value = 'Here is the log';
    drop(root.querySelector('form')!, new File(['lines'], 'huge.log', { type: 'text/plain' }));
    const files = filesOf(root);
    await waitUntil(() => files.querySelector('[role=alert]'), 'the refusal shows');
    expect(files.querySelector('[role=alert]')!.textContent).to.equal(
      '“huge.log” was not attached: it is larger than the 5 MB this site takes in one file.',
    );
    expect(files.querySelector('.chip')).to.equal(null);
    expect(box.value).to.equal('Here is the log');
    button('Send')!.click();
    await waitUntil(() => fake.callsOf('reply').length === 1);
    expect(fake.callsOf('reply')[0]![0]).to.not.have.property('attachmentIds');
  });

  it('attaches chosen files and leaves one out by its Remove button, focus moving to the next', async () => {
    const { root, fake, button } = await takeover(ana, {
      uploadAttachment: async (_conversationId, file) => attachment({ id: `id-${file.name}`, name: file.name }),
    });
    const files = filesOf(root);
    const picker = files.querySelector<HTMLInputElement>('input[type=file]')!;
    picker.files = transfer([png('a.png'), png('b.png')]).files;
    picker.dispatchEvent(new Event('change'));
    await waitUntil(() => files.querySelectorAll('.chip[data-state=attached]').length === 2, 'both uploaded');
    const remove = (name: string) => files.querySelector<HTMLButtonElement>(`button[aria-label="Remove ${name}"]`);
    remove('a.png')!.click();
    await waitUntil(() => remove('a.png') === null);
    expect(files.activeElement).to.equal(remove('b.png'));
    root.querySelector('textarea')!.value = 'Both screens';
    button('Send')!.click();
    await waitUntil(() => fake.callsOf('reply').length === 1);
    expect(fake.callsOf('reply')[0]![0]).to.deep.include({ text: 'Both screens', attachmentIds: ['id-b.png'] });
  });

  it('takes no files into a note', async () => {
    const { root, fake } = await takeover(ana);
    root.querySelector<HTMLInputElement>('input[value=note]')!.click();
    await waitUntil(() => boxLabel(root) === 'Note');
    expect(root.querySelector('heed-reply-attachments')!.hidden).to.be.true;
    paste(root.querySelector('textarea')!, png('shot.png'));
    await waitUntil(() => root.querySelector('[role=alert]'));
    expect(root.querySelector('[role=alert]')!.textContent).to.equal('Notes take no files: choose “Reply to visitor” to send one.');
    expect(fake.callsOf('uploadAttachment')).to.have.length(0);
  });

  it('is accessible', async () => {
    const { el } = await takeover(ana);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('is accessible with files uploading, attached and refused', async () => {
    const held = heldUpload();
    let calls = 0;
    const { el, root } = await takeover(ana, {
      uploadAttachment: async (conversationId, file, o) => {
        calls += 1;
        if (calls === 1) return attachment({ name: file.name });
        if (calls === 2) return held.upload(conversationId, file, o);
        throw new UploadRefusal('file_type_refused', 415, { detected: 'SVG' });
      },
    });
    paste(root.querySelector('textarea')!, png('done.png'), png('slow.png'), new File(['<svg/>'], 'logo.svg'));
    const files = filesOf(root);
    await waitUntil(() => files.querySelectorAll('.chip').length === 2 && files.querySelector('[role=alert]'), 'every state shown');
    await expect(el).shadowDom.to.be.accessible();
    await expect(root.querySelector('heed-reply-attachments')!).shadowDom.to.be.accessible();
    held.finish();
  });
});
