/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './heading.ts';
import type { HeedHeading } from './heading.component.ts';
import { titleFromInput } from './title-input.ts';

async function setup(label = 'Shipping', renamable = true) {
  const el = await fixture<HeedHeading>(html`<heed-heading .label=${label} ?renamable=${renamable} connection="connected"></heed-heading>`);
  const renamed: string[] = [];
  el.addEventListener('heed-rename', (e) => renamed.push((e as CustomEvent<{ title: string }>).detail.title));
  const root = el.shadowRoot!;
  const renameButton = () => root.querySelector<HTMLButtonElement>('button.rename');
  const field = () => root.querySelector<HTMLInputElement>('input');
  const key = async (k: string) => {
    const event = new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true });
    field()!.dispatchEvent(event);
    await el.updateComplete;
    return event;
  };
  const startRenaming = async () => {
    renameButton()!.click();
    await el.updateComplete;
    await el.updateComplete;
  };
  return { el, root, renamed, renameButton, field, key, startRenaming };
}

describe('heed-heading rename', () => {
  it('offers "Rename conversation" only when renamable', async () => {
    expect((await setup('Chat', false)).renameButton()).to.be.null;
    const { renameButton } = await setup();
    expect(renameButton()!.textContent!.trim()).to.equal('Rename conversation');
  });

  it('turns the title into a focused field named "Conversation title" holding the title', async () => {
    const { root, field, startRenaming, renameButton } = await setup('Shipping');
    await startRenaming();
    expect(root.querySelector('h2')).to.be.null;
    expect(renameButton()).to.be.null;
    expect(field()!.getAttribute('aria-label')).to.equal('Conversation title');
    expect(field()!.value).to.equal('Shipping');
    expect(root.activeElement).to.equal(field());
    expect(field()!.maxLength).to.equal(64);
  });

  it('saves on Enter, trimmed with whitespace collapsed, and gives focus back to the button', async () => {
    const { el, root, field, key, startRenaming, renamed, renameButton } = await setup();
    await startRenaming();
    field()!.value = '   Shipping   to\tNorway  ';
    await key('Enter');
    await el.updateComplete;
    expect(renamed).to.deep.equal(['Shipping to Norway']);
    expect(field()).to.be.null;
    expect(root.activeElement).to.equal(renameButton());
  });

  it('cancels on Escape without closing anything around it', async () => {
    const { el, field, key, startRenaming, renamed } = await setup('Shipping');
    let escapedOut = 0;
    document.addEventListener('keydown', () => escapedOut++, { once: true });
    await startRenaming();
    field()!.value = 'Something else';
    await key('Escape');
    expect(renamed).to.deep.equal([]);
    expect(escapedOut).to.equal(0);
    expect(field()).to.be.null;
    expect(el.shadowRoot!.querySelector('h2')!.textContent).to.equal('Shipping');
  });

  it('refuses an empty title (the field stays, marked invalid) and ignores an unchanged one', async () => {
    const { field, key, startRenaming, renamed } = await setup('Shipping');
    await startRenaming();
    field()!.value = '    ';
    await key('Enter');
    expect(field()!.getAttribute('aria-invalid')).to.equal('true');
    field()!.value = 'Shipping';
    field()!.dispatchEvent(new Event('input'));
    await key('Enter');
    expect(renamed).to.deep.equal([]);
    expect(field()).to.be.null;
  });

  it('saves a valid title when the field loses focus', async () => {
    const { el, field, startRenaming, renamed } = await setup('Shipping');
    await startRenaming();
    field()!.value = 'Returns';
    field()!.blur();
    await el.updateComplete;
    expect(renamed).to.deep.equal(['Returns']);
  });

  it('is accessible while renaming', async () => {
    const { el, startRenaming } = await setup();
    await startRenaming();
    await expect(el).shadowDom.to.be.accessible();
  });
});

describe('titleFromInput', () => {
  it('collapses whitespace, trims and keeps 1–64 characters counted as the server counts them', () => {
    expect(titleFromInput('  a \n b ')).to.equal('a b');
    expect(titleFromInput('   ')).to.be.null;
    expect(titleFromInput('x'.repeat(64))).to.equal('x'.repeat(64));
    expect(titleFromInput('x'.repeat(65))).to.be.null;
    expect(titleFromInput('🚢'.repeat(64)), 'code points, not UTF-16 units').to.equal('🚢'.repeat(64));
  });
});
