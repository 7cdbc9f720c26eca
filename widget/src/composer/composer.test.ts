/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './composer.ts';
import type { HeedComposer } from './composer.component.ts';

async function setup() {
  const el = await fixture<HeedComposer>(html`<heed-composer></heed-composer>`);
  const box = el.shadowRoot!.querySelector('textarea')!;
  const sent: string[] = [];
  el.addEventListener('heed-send', (e) => sent.push((e as CustomEvent).detail.content));
  const key = (init: KeyboardEventInit) =>
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init }));
  return { el, box, sent, key };
}

describe('heed-composer', () => {
  it('sends on Enter and clears the box', async () => {
    const { box, sent, key } = await setup();
    box.value = 'Hello';
    key({});
    expect(sent).to.deep.equal(['Hello']);
    expect(box.value).to.equal('');
  });

  it('keeps Shift+Enter for a new line', async () => {
    const { box, sent, key } = await setup();
    box.value = 'Hello';
    const notCancelled = key({ shiftKey: true });
    expect(notCancelled).to.be.true;
    expect(sent).to.deep.equal([]);
  });

  it('sends with the Send button and ignores blank messages', async () => {
    const { el, box, sent } = await setup();
    const button = el.shadowRoot!.querySelector('button')!;
    box.value = '   ';
    button.click();
    box.value = 'Hi';
    button.click();
    expect(sent).to.deep.equal(['Hi']);
  });

  it('names its controls "Message" and "Send"', async () => {
    const { el } = await setup();
    expect(el.shadowRoot!.querySelector('textarea')!.getAttribute('aria-label')).to.equal('Message');
    expect(el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('Send');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('says the visitor typed on each change of a non-empty box, never for an empty one', async () => {
    const { el, box } = await setup();
    let typed = 0;
    el.addEventListener('heed-typing', () => typed++);
    box.value = 'H';
    box.dispatchEvent(new InputEvent('input', { bubbles: true }));
    box.value = '  ';
    box.dispatchEvent(new InputEvent('input', { bubbles: true }));
    expect(typed).to.equal(1);
  });
});
