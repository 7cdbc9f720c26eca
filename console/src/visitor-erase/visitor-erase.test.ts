/// <reference types="mocha" />
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import './visitor-erase.ts';
import type { HeedVisitorErase } from './visitor-erase.component.ts';
import type { ErasedDetail, ErasingDetail } from './visitor-erase.component.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

const CONVERSATION = '00000000-0000-4000-8000-00000000c001';

async function eraser(fake = fakeConsoleApi()) {
  const el = await fixture<HeedVisitorErase>(
    html`<heed-visitor-erase .api=${fake.api} .me=${owner} .conversationId=${CONVERSATION}></heed-visitor-erase>`,
  );
  const dialog = () => el.shadowRoot!.querySelector('heed-confirm-dialog')!.shadowRoot!;
  const announced: string[] = [];
  el.addEventListener('heed-announce', (e) => announced.push((e as CustomEvent<{ text: string }>).detail.text));
  const open = async () => {
    el.shadowRoot!.querySelector<HTMLButtonElement>('button')!.click();
    await waitUntil(() => dialog().querySelector('dialog')?.open, 'the confirmation open');
  };
  return { el, fake, dialog, announced, open };
}

describe('heed-visitor-erase', () => {
  it('confirms with what would go, counted by the server', async () => {
    const { el, fake, dialog, open } = await eraser();
    expect(el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('Delete visitor data…');
    await open();
    expect(fake.callsOf('visitorErasure')).to.deep.equal([[CONVERSATION]]);
    expect(dialog().querySelector('h2')!.textContent).to.equal('Delete this visitor’s data?');
    expect(dialog().querySelector('#confirm-text')!.textContent).to.contain('3 conversations, 41 messages and 2 files, for good');
    await expect(el.shadowRoot!.querySelector('heed-confirm-dialog')!).shadowDom.to.be.accessible();
  });

  it('erases on confirm, says what went and tells the page, the erasure announced as under way first', async () => {
    const { el, fake, dialog, announced, open } = await eraser();
    const erasing = oneEvent(el, 'heed-visitor-erasing');
    const erased = oneEvent(el, 'heed-visitor-erased');
    await open();
    dialog().querySelector<HTMLButtonElement>('button.danger')!.click();
    const under = (await erasing).detail as ErasingDetail;
    expect(under.conversationId).to.equal(CONVERSATION);
    expect(await under.done).to.be.true;
    const done = (await erased).detail as ErasedDetail;
    expect(done.result.counts.conversations).to.equal(3);
    expect(fake.callsOf('eraseVisitor')).to.deep.equal([[CONVERSATION]]);
    expect(announced).to.deep.equal(['Visitor data deleted: 3 conversations, 41 messages and 2 files. A record of the erasure stays.']);
  });

  it('erases nothing on Cancel', async () => {
    const { el, fake, dialog, open } = await eraser();
    await open();
    dialog().querySelector<HTMLButtonElement>('button[value=no]')!.click();
    await waitUntil(() => !dialog().querySelector('dialog')!.open, 'closed');
    await el.updateComplete;
    expect(fake.callsOf('eraseVisitor')).to.have.length(0);
  });

  it('says why when the server refuses, the erasure settling as not done', async () => {
    const fake = fakeConsoleApi({ eraseVisitor: async () => Promise.reject(refusal('FORBIDDEN', null, 'Only an owner can do this.')) });
    const { el, dialog, announced, open } = await eraser(fake);
    const erasing = oneEvent(el, 'heed-visitor-erasing');
    await open();
    dialog().querySelector<HTMLButtonElement>('button.danger')!.click();
    expect(await ((await erasing).detail as ErasingDetail).done).to.be.false;
    await waitUntil(() => el.shadowRoot!.querySelector('[role=alert]'), 'the refusal shown');
    expect(el.shadowRoot!.querySelector('[role=alert]')!.textContent).to.contain('Only an owner');
    expect(announced).to.deep.equal([]);
  });
});
