/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { focusables, wrapTab } from './focus-trap.ts';

class SlotHost extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML =
      '<button id="own-first">own</button><slot name="start"></slot><button id="own-last">own last</button>';
  }
}
customElements.define('focus-trap-slot-host', SlotHost);

async function setup() {
  const root = await fixture<HTMLElement>(html`<div>
    <focus-trap-slot-host><button slot="start" id="slotted">slotted</button></focus-trap-slot-host>
    <button id="hidden" hidden>hidden</button>
    <textarea id="box"></textarea>
  </div>`);
  return root;
}

const tab = (shiftKey = false) => new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true });

describe('focus trap', () => {
  it('lists what Tab reaches in its order: through shadow roots, slotted elements at their slot, hidden ones left out', async () => {
    const root = await setup();
    expect(focusables(root).map((el) => el.id)).to.deep.equal(['own-first', 'slotted', 'own-last', 'box']);
  });

  it('wraps Tab from the last element to the first, and Shift+Tab from the first to the last', async () => {
    const root = await setup();
    const [first] = focusables(root);
    const box = root.querySelector<HTMLTextAreaElement>('#box')!;
    box.focus();
    const forward = tab();
    wrapTab(forward, root);
    expect(forward.defaultPrevented).to.be.true;
    expect(root.querySelector('focus-trap-slot-host')!.shadowRoot!.activeElement).to.equal(first);

    const back = tab(true);
    wrapTab(back, root);
    expect(back.defaultPrevented).to.be.true;
    expect(document.activeElement).to.equal(box);
  });

  it('leaves Tab alone in the middle', async () => {
    const root = await setup();
    root.querySelector<HTMLButtonElement>('#slotted')!.focus();
    const e = tab();
    wrapTab(e, root);
    expect(e.defaultPrevented).to.be.false;
  });
});
