/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './message-attachments.ts';
import type { HeedMessageAttachments } from './message-attachments.component.ts';
import type { AttachmentView } from '../state/contract.ts';
import { attachment, fakeConsoleApi, PIXEL } from '../test-support/fake-console-api.ts';

async function shown(attachments: AttachmentView[]) {
  const el = await fixture<HeedMessageAttachments>(
    html`<heed-message-attachments .api=${fakeConsoleApi().api} .attachments=${attachments}></heed-message-attachments>`,
  );
  return { el, root: el.shadowRoot! };
}

describe('heed-message-attachments', () => {
  it('shows an image as a thumbnail in its shape, named by its file, in a button that enlarges it', async () => {
    const { root } = await shown([attachment({ name: 'error.png', url: PIXEL, width: 1200, height: 800 })]);
    const thumb = root.querySelector<HTMLButtonElement>('button.thumb')!;
    expect(thumb.getAttribute('aria-label')).to.equal('Enlarge error.png');
    const img = thumb.querySelector('img')!;
    expect([img.alt, img.getAttribute('loading'), img.getAttribute('width'), img.getAttribute('height')]).to.deep.equal([
      'error.png',
      'lazy',
      '160',
      '107',
    ]);
  });

  it('opens the image whole in a modal dialog from the keyboard; Escape closes it and focus goes back to the thumbnail', async () => {
    const { el, root } = await shown([attachment({ name: 'error.png', url: PIXEL })]);
    const thumb = root.querySelector<HTMLButtonElement>('button.thumb')!;
    thumb.focus();
    await sendKeys({ press: 'Enter' });
    const dialog = root.querySelector('dialog')!;
    await waitUntil(() => dialog.open, 'the dialog opens');
    expect(dialog.querySelector('h2')!.textContent).to.equal('error.png');
    expect(dialog.querySelector('img')!.alt).to.equal('error.png');
    expect(dialog.textContent).to.contain('PNG image · 1.2 MB · 1200 × 800 px');
    expect(root.activeElement!.textContent).to.equal('Close');
    await expect(el).shadowDom.to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog.open, 'Escape closes it');
    await waitUntil(() => root.activeElement === thumb, 'focus back on the thumbnail');
    thumb.click();
    await waitUntil(() => dialog.open);
    root.querySelector<HTMLButtonElement>('dialog button.close')!.click();
    await waitUntil(() => !dialog.open && root.activeElement === thumb, 'Close closes it too');
  });

  it('links any other file by its name, with its type and size', async () => {
    const pdf = attachment({ name: 'invoice.pdf', mime: 'application/pdf', kind: 'file', bytes: 340 * 1024, width: null, height: null });
    const { el, root } = await shown([pdf]);
    const link = root.querySelector('a')!;
    expect(link.textContent).to.equal('invoice.pdf');
    expect(link.href).to.equal(new URL(pdf.url!, `${location.origin}/`).href);
    expect(root.querySelector('.file .facts')!.textContent).to.equal('PDF · 340 KB');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('shows a private conversation’s files as what they are, with no name and no link', async () => {
    const { el, root } = await shown([
      attachment({ name: '', url: null }),
      attachment({ name: '', url: null, mime: 'text/plain', kind: 'file', bytes: 812, width: null, height: null }),
    ]);
    expect([...root.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'PNG image · 1.2 MB (withheld: the visitor made this conversation private)',
      'Plain text · 812 bytes (withheld: the visitor made this conversation private)',
    ]);
    expect(root.querySelector('a, img, button')).to.equal(null);
    await expect(el).shadowDom.to.be.accessible();
  });
});
