/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../message-list/message-list.ts';
import type { HeedMessageList } from '../message-list/message-list.component.ts';
import { deepActiveElement } from '../panel/focus-trap.ts';
import type { ThreadMessage } from '../state/types.ts';
import { attachment, message } from '../test-support/fake-api.ts';

const conversationId = 'c1';
const base = `${location.origin}/`;
const screenshot = attachment({ name: 'checkout error.png', width: 1280, height: 800 });
const invoice = attachment({ name: 'invoice-2291.pdf', mime: 'application/pdf', bytes: 1_258_291 });
const notes = attachment({ name: 'steps.txt', mime: 'text/plain', bytes: 840 });

async function thread(messages: ThreadMessage[]) {
  const el = await fixture<HeedMessageList>(
    html`<div style="width: 480px; height: 640px; display: flex"><heed-message-list style="flex: 1" .messages=${messages} .apiBase=${base}></heed-message-list></div>`,
  ).then((d) => d.querySelector('heed-message-list')!);
  const hosts = () => [...el.shadowRoot!.querySelectorAll('heed-message-files')];
  await waitUntil(() => hosts().length > 0 && hosts().every((f) => f.shadowRoot?.querySelector('li')), 'the files show');
  const files = () => hosts().map((f) => f.shadowRoot!);
  return { el, files };
}

describe('files in the thread', () => {
  it('shows an image as a thumbnail of its own proportions, with its name as alt text, loaded lazily from the API', async () => {
    const { files } = await thread([message({ conversationId, role: 'user', content: 'It fails here', attachments: [screenshot] })]);
    const button = files()[0]!.querySelector<HTMLButtonElement>('[part="thumbnail"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Enlarge checkout error.png');
    const img = button.querySelector('img')!;
    expect(img.alt).to.equal('checkout error.png');
    expect(img.src).to.equal(new URL(screenshot.url!, base).href);
    expect([img.getAttribute('width'), img.getAttribute('height'), img.loading]).to.deep.equal(['220', '138', 'lazy']);
  });

  it('enlarges an image in a dialog from the keyboard: Enter opens it with focus inside, Escape closes it, focus returns', async () => {
    const { el, files } = await thread([
      message({ conversationId, content: 'Here is the fix', role: 'operator', attachments: [screenshot] }),
    ]);
    const root = files()[0]!;
    const button = root.querySelector<HTMLButtonElement>('[part="thumbnail"]')!;
    const escapes: string[] = [];
    el.addEventListener('keydown', (e) => e.key === 'Escape' && escapes.push('reached the thread'));
    button.focus();
    await sendKeys({ press: 'Enter' });
    const dialog = root.querySelector('dialog')!;
    await waitUntil(() => dialog.open, 'the dialog opens');
    expect(dialog.matches(':modal')).to.be.true;
    expect(root.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).to.equal('checkout error.png');
    expect(dialog.querySelector('img')!.alt).to.equal('checkout error.png');
    const close = dialog.querySelector<HTMLButtonElement>('.close')!;
    expect(close.textContent!.trim()).to.equal('Close');
    await waitUntil(() => deepActiveElement() === close, 'focus moves to Close');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog.open, 'Escape closes it');
    await waitUntil(() => deepActiveElement() === button, 'focus returns to the thumbnail');
    expect(escapes, 'Escape stops at the dialog: the panel around stays open').to.deep.equal([]);

    button.click();
    await waitUntil(() => dialog.open, 'opens on a click');
    close.click();
    await waitUntil(() => !dialog.open && deepActiveElement() === button, 'Close closes it');
  });

  it('links other files by name, type and size, as downloads from the API', async () => {
    const { files } = await thread([message({ conversationId, role: 'user', content: 'Both attached', attachments: [invoice, notes] })]);
    const links = [...files()[0]!.querySelectorAll<HTMLAnchorElement>('a[part="file"]')];
    expect(links.map((a) => a.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'invoice-2291.pdf PDF, 1.2 MB',
      'steps.txt Text file, 840 bytes',
    ]);
    expect(links[0]!.href).to.equal(new URL(invoice.url!, base).href);
    expect(links[0]!.getAttribute('download')).to.equal('invoice-2291.pdf');
    expect(links[0]!.rel).to.equal('noopener noreferrer');
  });

  it('draws a message of files alone without an empty bubble, and a message with words and files in one', async () => {
    const { el } = await thread([
      message({ conversationId, role: 'user', content: '', attachments: [screenshot] }),
      message({ conversationId, role: 'user', content: 'And the invoice', attachments: [invoice] }),
    ]);
    const [alone, withWords] = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.message.user')];
    expect(alone!.classList.contains('files-only')).to.be.true;
    expect(getComputedStyle(alone!).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(alone!.textContent!.trim(), 'who sent it, for screen readers').to.equal('You:');
    expect(withWords!.classList.contains('files-only')).to.be.false;
    expect(withWords!.querySelector('heed-message-files')).to.exist;
  });

  it('passes axe with images and files in the thread', async () => {
    const { el } = await thread([
      message({ conversationId, role: 'user', content: 'It fails here', attachments: [screenshot, invoice] }),
      message({ conversationId, role: 'operator', content: '', provenanceLabel: 'Operator — Ana', attachments: [notes] }),
      message({ conversationId, content: 'Thanks, we will look.' }),
    ]);
    await expect(el).shadowDom.to.be.accessible();
  });
});
