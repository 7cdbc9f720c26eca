/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './confirm-dialog.ts';
import type { HeedConfirmDialog } from './confirm-dialog.component.ts';

const question = { title: 'Delete viewed_pricing?', text: 'The host page’s intent is then ignored.', confirm: 'Delete' };

describe('heed-confirm-dialog', () => {
  it('answers true on the confirming button and false on Cancel, focusing Cancel first', async () => {
    const el = await fixture<HeedConfirmDialog>(html`<heed-confirm-dialog></heed-confirm-dialog>`);
    const root = el.shadowRoot!;
    const asked = el.ask(question);
    await el.updateComplete;
    expect(root.querySelector('dialog')!.open).to.be.true;
    expect(root.querySelector('h2')!.textContent).to.equal('Delete viewed_pricing?');
    expect(root.activeElement!.textContent).to.equal('Cancel');
    root.querySelector<HTMLButtonElement>('button.danger')!.click();
    expect(await asked).to.be.true;
    const again = el.ask(question);
    await el.updateComplete;
    root.querySelector<HTMLButtonElement>('button[value=no]')!.click();
    expect(await again).to.be.false;
  });

  it('is accessible while open', async () => {
    const el = await fixture<HeedConfirmDialog>(html`<heed-confirm-dialog></heed-confirm-dialog>`);
    void el.ask(question);
    await el.updateComplete;
    await expect(el).shadowDom.to.be.accessible();
  });
});
