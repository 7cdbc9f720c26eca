/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../panel/panel.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import type { HeedComposer } from '../composer/composer.component.ts';
import type { HeedAttachmentTray } from './attachment-tray.component.ts';
import { deepActiveElement } from '../panel/focus-trap.ts';
import { HeedStore } from '../state/store.ts';
import type { AttachmentSettings } from '../state/types.ts';
import { ATTACHMENTS_ON, conversation, deepQueryAll, FakeApi, settle, uploadRefusal } from '../test-support/fake-api.ts';

/** A real PNG of one colour, as a screenshot on the clipboard is. */
async function png(name = 'shot.png', colour = '#e00000'): Promise<File> {
  const canvas = new OffscreenCanvas(64, 40);
  const g = canvas.getContext('2d')!;
  g.fillStyle = colour;
  g.fillRect(0, 0, 64, 40);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
}

function transfer(files: File[], more: Record<string, string> = {}): DataTransfer {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  for (const [type, value] of Object.entries(more)) data.setData(type, value);
  return data;
}

/** Makes the fake's uploads wait at half their bytes until the returned function is called. */
function holdUploads(api: FakeApi): () => void {
  let release = () => {};
  api.uploadHold = new Promise<void>((r) => (release = r));
  return () => {
    api.uploadHold = null;
    release();
  };
}

/** A panel open on a conversation; `settings` null: an API older than attachments (the site says nothing of them). */
async function setup(settings: AttachmentSettings | null = ATTACHMENTS_ON) {
  const c = conversation({ title: 'Broken checkout' });
  const api = new FakeApi({ conversations: [c], site: settings ? { attachments: settings } : {} });
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(
    html`<div style="width: 760px; height: 600px"><heed-panel .store=${store} layout="wide" open></heed-panel></div>`,
  ).then((d) => d.querySelector('heed-panel')!);
  await el.openConversation(c.id);
  await settle();
  const composer = el.shadowRoot!.querySelector<HeedComposer>('heed-composer')!;
  await composer.updateComplete;
  const root = composer.shadowRoot!;
  const box = root.querySelector('textarea')!;
  const tray = () => root.querySelector<HeedAttachmentTray>('heed-attachment-tray');
  const chips = () => [...(tray()?.shadowRoot?.querySelectorAll<HTMLElement>('[part="attachment"]') ?? [])];
  const chip = (name: string) => chips().find((li) => li.querySelector('.name')?.textContent === name);
  const status = () => deepQueryAll(el.shadowRoot!, '[role="status"]')[0]!.textContent!;
  const paste = (files: File[], more: Record<string, string> = {}) =>
    box.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer(files, more), bubbles: true, cancelable: true, composed: true }),
    );
  const sendButton = () => root.querySelector<HTMLButtonElement>('[part="send"]')!;
  const sent = () => api.callsOf('send').map(([input]) => input as { content: string; attachmentIds?: string[] });
  const thread = () => el.shadowRoot!.querySelector('heed-message-list')!.shadowRoot!;
  return { el, api, store, c, composer, box, tray, chips, chip, status, paste, sendButton, sent, thread };
}

const attachLoaded = () =>
  performance
    .getEntriesByType('resource')
    .some((e) => /\/attach\/(attach|attachment-tray\.component|message-files\.component)\.ts/.test(e.name));

describe('attaching files in the composer', () => {
  // first: nothing in this page has attached yet
  it('loads the attachment code only when a visitor first attaches a file', async () => {
    const { paste, chips } = await setup();
    expect(attachLoaded(), 'loaded with the panel').to.be.false;
    expect(customElements.get('heed-attachment-tray')).to.be.undefined;
    paste([await png()]);
    await waitUntil(() => chips().length === 1, 'the pasted file shows');
    expect(attachLoaded()).to.be.true;
  });

  it('attaches a pasted screenshot: a chip with its thumbnail drawn in a canvas, its size and upload progress, then sends its id with the words', async () => {
    const { api, box, paste, chip, status, sendButton, sent, thread } = await setup();
    const release = holdUploads(api);
    box.value = 'The pay button does nothing';
    const notCancelled = paste([await png('shot.png')]);
    expect(notCancelled, 'the paste itself is taken over').to.be.false;
    await waitUntil(() => chip('shot.png')?.querySelector('progress'), 'the chip shows its progress');
    const li = chip('shot.png')!;
    const bar = li.querySelector('progress')!;
    expect(bar.getAttribute('aria-label')).to.equal('Uploading shot.png');
    expect(bar.getAttribute('value')).to.equal('50');
    expect(li.querySelector('.size')!.textContent).to.match(/^\d+ bytes$/);
    const canvas = li.querySelector('canvas')!;
    await waitUntil(() => canvas.getContext('2d')!.getImageData(40, 40, 1, 1).data[0] === 224, 'the thumbnail is drawn');
    expect(box.value, 'the words stay').to.equal('The pay button does nothing');
    expect(api.callsOf('upload')[0]![0]).to.include({ name: 'shot.png' });

    release();
    await waitUntil(() => !chip('shot.png')!.querySelector('progress'), 'the upload finished');
    await waitUntil(() => status().includes('shot.png is ready to send'), 'it is said');
    sendButton().click();
    await waitUntil(() => sent().length === 1, 'sent');
    const view = [...api.uploaded.values()][0]!;
    expect(sent()[0]).to.include({ content: 'The pay button does nothing' });
    expect(sent()[0]!.attachmentIds).to.deep.equal([view.id]);
    expect(box.value).to.equal('');
    await waitUntil(() => thread().querySelector('heed-message-files')?.shadowRoot?.querySelector('img'), 'the message shows its image');
  });

  it('leaves a paste of text alone, and the text of a spreadsheet that also puts a picture on the clipboard', async () => {
    const { paste, chips, api } = await setup();
    expect(paste([], { 'text/plain': 'hello' })).to.be.true;
    expect(paste([await png('cells.png')], { 'text/plain': 'a\tb', 'text/html': '<table></table>' })).to.be.true;
    await settle();
    expect(chips()).to.have.length(0);
    expect(api.callsOf('upload')).to.deep.equal([]);
  });

  it('waits for uploads before sending, and the send button says so', async () => {
    const { api, box, paste, chip, sendButton, sent, status } = await setup();
    const release = holdUploads(api);
    paste([await png('a.png')]);
    await waitUntil(() => chip('a.png')?.querySelector('progress'), 'uploading');
    box.value = 'See the picture';
    sendButton().click();
    await waitUntil(() => sendButton().textContent!.includes('Sending once the files are uploaded…'), 'the button says the send waits');
    expect(status()).to.include('Sending once the files are uploaded…');
    expect(sent()).to.deep.equal([]);
    release();
    await waitUntil(() => sent().length === 1, 'sent once the upload is done');
    expect(sent()[0]!.attachmentIds).to.have.length(1);
    expect(sendButton().textContent!.trim()).to.equal('Send');
  });

  it('attaches files dropped on the panel, showing and saying where they go while they are dragged over it', async () => {
    const { el, api, chips, status, tray } = await setup();
    const file = await png('dropped.png');
    const target = el.shadowRoot!.querySelector('heed-message-list')!;
    const drag = (type: string) =>
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer([file]), bubbles: true, composed: true, cancelable: true }));
    expect(drag('dragenter'), 'the panel takes the drop').to.be.false;
    const zone = () => tray()?.shadowRoot?.querySelector<HTMLElement>('[part="drop-zone"]');
    await waitUntil(() => zone()?.checkVisibility(), 'the drop zone shows');
    expect(zone()!.textContent).to.equal('Drop files here to attach them');
    const panel = el.getBoundingClientRect();
    expect(zone()!.getBoundingClientRect().height, 'it covers the panel').to.be.above(panel.height - 20);
    await waitUntil(() => status().includes('Drop files here to attach them'), 'it is said');
    expect(drag('dragover')).to.be.false;
    drag('drop');
    await waitUntil(() => chips().length === 1, 'the dropped file shows');
    expect(!!zone(), 'the drop zone after the drop').to.be.false;
    expect(api.callsOf('upload')[0]![0]).to.include({ name: 'dropped.png' });
  });

  it('attaches files from the picker, which offers the kinds the site takes', async () => {
    const { composer, api, chips } = await setup({ ...ATTACHMENTS_ON, kinds: ['png', 'jpeg', 'pdf', 'text'] });
    const button = composer.shadowRoot!.querySelector<HTMLButtonElement>('[part="attach"]')!;
    expect(button.textContent!.trim()).to.equal('Attach files');
    const input = composer.shadowRoot!.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).to.equal('image/png,image/jpeg,.pdf,.txt');
    expect(input.multiple).to.be.true;
    input.files = transfer([await png('picked.png'), new File(['notes'], 'notes.txt', { type: 'text/plain' })]).files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await waitUntil(() => chips().length === 2, 'both files show');
    expect(api.callsOf('upload').map(([i]) => (i as { name: string }).name)).to.deep.equal(['picked.png', 'notes.txt']);
    expect(!!chips()[1]!.querySelector('canvas'), 'a text file shows an icon, not a canvas').to.be.false;
  });

  it('offers no attaching where the site turned it off, or to an API that predates it', async () => {
    for (const settings of [{ ...ATTACHMENTS_ON, kinds: [] }, null]) {
      const { composer, paste, chips } = await setup(settings);
      expect(!!composer.shadowRoot!.querySelector('[part="attach"]'), 'an attach button').to.be.false;
      expect(paste([await png()]), 'the paste is left to the box').to.be.true;
      await settle();
      expect(chips()).to.have.length(0);
    }
  });

  it('aborts the upload of a file removed, and focus goes back to the box', async () => {
    const { api, paste, chip, chips, box } = await setup();
    holdUploads(api);
    paste([await png('oops.png')]);
    await waitUntil(() => chip('oops.png')?.querySelector('progress'), 'uploading');
    const remove = chip('oops.png')!.querySelector<HTMLButtonElement>('.remove')!;
    expect(remove.textContent!.trim()).to.equal('Remove oops.png');
    remove.focus();
    remove.click();
    await waitUntil(() => chips().length === 0, 'the chip goes');
    expect(api.aborted).to.deep.equal(['oops.png']);
    expect(deepActiveElement()).to.equal(box);
  });

  it('says why the server refused a file, and loses neither the words nor the other files', async () => {
    const { api, box, paste, chip, status, sendButton, sent } = await setup();
    const answer = api.uploadAnswer;
    api.uploadAnswer = async (input) =>
      input.name.endsWith('.svg') ? Promise.reject(await uploadRefusal(415, 'file_type_refused', { detected: 'SVG' })) : answer(input);
    box.value = 'Here is the layout';
    paste([await png('ok.png')]);
    paste([new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'diagram.svg')]);
    const why = "diagram.svg can't be attached: SVG images aren't accepted. You can attach PNG, JPEG, WebP, GIF, PDF, or text files.";
    await waitUntil(() => chip('diagram.svg')?.querySelector('.why')?.textContent === why, 'the refusal shows beside the file');
    await waitUntil(() => status().includes(why), 'and is said');
    expect(chip('diagram.svg')!.dataset.state).to.equal('refused');
    await waitUntil(() => chip('ok.png')?.dataset.state === 'done', 'the other file uploaded');
    expect(box.value).to.equal('Here is the layout');

    sendButton().click();
    await waitUntil(() => sent().length === 1, 'sent with the file that was taken');
    expect(sent()[0]!.attachmentIds).to.deep.equal([[...api.uploaded.keys()][0]]);
  });

  it('refuses a file over the size limit before uploading it', async () => {
    const { api, paste, chip } = await setup({ ...ATTACHMENTS_ON, maxBytes: 1024 * 1024 });
    paste([new File([new Uint8Array(2 * 1024 * 1024)], 'video.mp4', { type: 'video/mp4' })]);
    await waitUntil(() => chip('video.mp4'), 'the file shows');
    expect(chip('video.mp4')!.querySelector('.why')!.textContent).to.equal('video.mp4 is 2 MB; files can be up to 1 MB.');
    expect(api.callsOf('upload')).to.deep.equal([]);
  });

  it('sends a message of files alone, drawn without an empty bubble', async () => {
    const { api, box, paste, chip, sent, thread } = await setup();
    paste([await png('only.png')]);
    await waitUntil(() => chip('only.png')?.dataset.state === 'done', 'uploaded');
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await waitUntil(() => sent().length === 1, 'sent');
    expect(sent()[0]).to.include({ content: '' });
    expect(sent()[0]!.attachmentIds).to.deep.equal([...api.uploaded.keys()]);
    const bubble = thread().querySelector<HTMLElement>('.message.user')!;
    expect(bubble.classList.contains('files-only')).to.be.true;
    expect(getComputedStyle(bubble).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    await waitUntil(() => bubble.querySelector('heed-message-files')?.shadowRoot?.querySelector('img[alt="only.png"]'), 'its image shows');
  });

  it('tries a file again after the wait the server asks for, saying so', async () => {
    const { api, paste, chip, status } = await setup();
    const answer = api.uploadAnswer;
    let first = true;
    api.uploadAnswer = async (input) => {
      if (!first) return answer(input);
      first = false;
      throw await uploadRefusal(429, 'rate_limited', { retryAfterMs: 50 });
    };
    paste([await png('later.png')]);
    await waitUntil(() => status().includes('Too many uploads at once: later.png is tried again in 1 second.'), 'the wait is said');
    await waitUntil(() => chip('later.png')?.dataset.state === 'done', 'uploaded on the second try');
    expect(api.callsOf('upload')).to.have.length(2);
  });

  it('passes axe with files uploading, refused and uploaded', async () => {
    const { el, api, paste, chips } = await setup({ ...ATTACHMENTS_ON, maxBytes: 1024 * 1024 });
    paste([await png('done.png')]);
    await waitUntil(() => chips()[0]?.dataset.state === 'done', 'uploaded');
    holdUploads(api);
    paste([await png('going.png'), new File([new Uint8Array(2 * 1024 * 1024)], 'big.pdf', { type: 'application/pdf' })]);
    await waitUntil(() => chips().length === 3, 'all show');
    await expect(el).shadowDom.to.be.accessible();
  });
});
