/// <reference types="mocha" />
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import './site-delete.ts';
import type { HeedSiteDelete } from './site-delete.component.ts';
import { fakeConsoleApi, refusal } from '../test-support/fake-console-api.ts';

describe('heed-site-delete', () => {
  it('says what is deleted and deletes only once the site key is typed', async () => {
    const fake = fakeConsoleApi();
    const el = await fixture<HeedSiteDelete>(
      html`<heed-site-delete .api=${fake.api} siteId="site-1" siteKey="shop" siteName="Shop"></heed-site-delete>`,
    );
    const $ = <T extends Element>(sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
    $<HTMLButtonElement>('button').click();
    await waitUntil(() => $('#delete-what'), 'counts shown');
    expect($<HTMLDialogElement>('dialog').open).to.be.true;
    expect($('#delete-what').textContent!.replace(/\s+/g, ' ')).to.contain('12 conversations, 5 visitors and 140 messages');
    const confirm = $<HTMLButtonElement>('button[type=submit]');
    expect(confirm.disabled).to.be.true;

    const input = $<HTMLInputElement>('input[name=confirmKey]');
    input.value = 'sho';
    input.dispatchEvent(new InputEvent('input'));
    await el.updateComplete;
    expect(confirm.disabled).to.be.true;
    input.value = 'shop';
    input.dispatchEvent(new InputEvent('input'));
    await el.updateComplete;
    expect(confirm.disabled).to.be.false;

    setTimeout(() => confirm.click());
    const done = await oneEvent(el, 'heed-site-deleted');
    expect(done.detail.deleted.conversations).to.equal(12);
    expect(fake.callsOf('deleteSite')).to.deep.equal([['site-1', 'shop']]);
    expect($<HTMLDialogElement>('dialog').open).to.be.false;
  });

  it('keeps the dialog open with the server’s reason when the delete is refused', async () => {
    const fake = fakeConsoleApi({ deleteSite: async () => Promise.reject(refusal('FORBIDDEN', 'owner_only')) });
    const el = await fixture<HeedSiteDelete>(
      html`<heed-site-delete .api=${fake.api} siteId="site-1" siteKey="shop" siteName="Shop"></heed-site-delete>`,
    );
    const $ = <T extends Element>(sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
    $<HTMLButtonElement>('button').click();
    const input = $<HTMLInputElement>('input[name=confirmKey]');
    input.value = 'shop';
    input.dispatchEvent(new InputEvent('input'));
    await el.updateComplete;
    $<HTMLButtonElement>('button[type=submit]').click();
    await waitUntil(() => $('[role=alert]'), 'refusal shown');
    expect($('[role=alert]').textContent).to.contain('Only an owner');
    expect($<HTMLDialogElement>('dialog').open).to.be.true;
  });
});
