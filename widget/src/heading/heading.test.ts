/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './heading.ts';
import type { HeedHeading } from './heading.component.ts';
import { titleFromInput } from './title-input.ts';

/** An element's text as its accessible name reads it: without what is hidden from assistive tech. */
function nameOf(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent!.trim();
}

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

describe('heed-heading conversation menu', () => {
  async function menu(isPrivate = false) {
    const el = await fixture<HeedHeading>(html`<div style="width: 480px">
      <heed-heading label="Shipping" options ?private=${isPrivate} connection="connected" provenance="Private · Operator — Ana"></heed-heading>
    </div>`).then((d) => d.querySelector('heed-heading')!);
    const changes: boolean[] = [];
    el.addEventListener('heed-private-change', (e) => changes.push((e as CustomEvent<{ private: boolean }>).detail.private));
    let deletes = 0;
    el.addEventListener('heed-delete', () => deletes++);
    const root = el.shadowRoot!;
    const button = () => root.querySelector<HTMLButtonElement>('.menu-button')!;
    const toggle = () => root.querySelector<HTMLButtonElement>('[role="menuitemcheckbox"]');
    const deleteItem = () => root.querySelector<HTMLButtonElement>('[role="menuitem"]');
    const dialog = () => root.querySelector('dialog')!;
    const open = async () => {
      button().click();
      await el.updateComplete;
      await el.updateComplete;
    };
    const key = async (k: string, target: Element = root.activeElement!) => {
      target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true }));
      await el.updateComplete;
    };
    /** Opens the menu and chooses "Delete conversation": the confirmation is up once this resolves. */
    const askDelete = async () => {
      await open();
      deleteItem()!.click();
      await waitUntil(() => dialog().open, 'the confirmation opens');
    };
    return { el, root, button, toggle, deleteItem, dialog, open, key, askDelete, changes, deletes: () => deletes };
  }

  it('offers a "Conversation options" menu button only with options', async () => {
    expect((await setup('Chat', true)).root.querySelector('.menu-button')).to.be.null;
    const { button } = await menu();
    expect(button().textContent!.trim()).to.equal('Conversation options');
    expect(button().getAttribute('aria-haspopup')).to.equal('menu');
    expect(button().getAttribute('aria-expanded')).to.equal('false');
  });

  it('opens on the "Private" toggle, focused, named and described, with its state in aria-checked', async () => {
    const { root, button, toggle, open, el } = await menu();
    await open();
    expect(button().getAttribute('aria-expanded')).to.equal('true');
    expect(root.querySelector('[role="menu"]')!.getAttribute('aria-label')).to.equal('Conversation options');
    expect(nameOf(toggle()!)).to.equal('Private');
    expect(toggle()!.getAttribute('aria-checked')).to.equal('false');
    expect(root.getElementById(toggle()!.getAttribute('aria-describedby')!)!.textContent).to.contain(
      'Never used in your other conversations',
    );
    expect(root.activeElement).to.equal(toggle());
    await expect(el).shadowDom.to.be.accessible();
  });

  it('asks for the other state when toggled, and shows the state it is given', async () => {
    const { el, toggle, open, changes } = await menu(false);
    await open();
    toggle()!.click();
    expect(changes).to.deep.equal([true]);
    el.isPrivate = true;
    await el.updateComplete;
    expect(toggle()!.getAttribute('aria-checked')).to.equal('true');
    toggle()!.click();
    expect(changes).to.deep.equal([true, false]);
  });

  it('closes on Escape without closing anything around it, giving focus back to its button', async () => {
    const { el, root, button, toggle, open } = await menu();
    let escapedOut = 0;
    document.addEventListener('keydown', () => escapedOut++, { once: true });
    await open();
    toggle()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    await el.updateComplete;
    expect(toggle()).to.be.null;
    expect(escapedOut).to.equal(0);
    expect(root.activeElement).to.equal(button());
  });

  it('closes on a click outside it', async () => {
    const { el, toggle, open } = await menu();
    await open();
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));
    await el.updateComplete;
    expect(toggle()).to.be.null;
  });

  it('keeps the status the one live region, the label outside it', async () => {
    const { root, open } = await menu(true);
    await open();
    expect(root.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')).to.have.length(1);
    expect(root.querySelector('[aria-live] .provenance')).to.be.null;
    expect(root.querySelector('.provenance')!.textContent).to.equal('Private · Operator — Ana');
  });

  it('holds two items, "Private" then "Delete conversation", and the arrow keys go round them', async () => {
    const { root, toggle, deleteItem, open, key } = await menu();
    await open();
    const items = [...root.querySelectorAll('[role="menu"] > *')];
    expect(items).to.deep.equal([toggle(), deleteItem()]);
    expect(deleteItem()!.textContent!.trim()).to.equal('Delete conversation');
    expect(root.activeElement).to.equal(toggle());
    await key('ArrowDown');
    expect(root.activeElement).to.equal(deleteItem());
    await key('ArrowDown');
    expect(root.activeElement, 'past the last: the first').to.equal(toggle());
    await key('ArrowUp');
    expect(root.activeElement, 'before the first: the last').to.equal(deleteItem());
    await key('Home');
    expect(root.activeElement).to.equal(toggle());
    await key('End');
    expect(root.activeElement).to.equal(deleteItem());
  });

  it('asks before deleting: a modal alertdialog, named and described, focus on Cancel, the menu closed', async () => {
    const { root, dialog, toggle, askDelete, deletes } = await menu();
    await askDelete();
    expect(dialog().matches(':modal')).to.equal(true);
    expect(dialog().getAttribute('role')).to.equal('alertdialog');
    expect(root.getElementById(dialog().getAttribute('aria-labelledby')!)!.textContent).to.equal('Delete conversation');
    expect(root.getElementById(dialog().getAttribute('aria-describedby')!)!.textContent).to.equal(
      'This conversation and its files are deleted for good, here and for the site’s team. This cannot be undone.',
    );
    expect([...dialog().querySelectorAll('button')].map((b) => b.textContent)).to.deep.equal(['Cancel', 'Delete']);
    expect(root.activeElement!.textContent).to.equal('Cancel');
    expect(toggle() === null, 'the menu closed').to.equal(true);
    expect(deletes()).to.equal(0);
  });

  it('is accessible with the confirmation open', async () => {
    const { el, askDelete } = await menu();
    await askDelete();
    await expect(el).shadowDom.to.be.accessible();
  });

  it('Escape cancels the confirmation, and only it, giving focus back to the menu button', async () => {
    const { root, dialog, button, askDelete, deletes } = await menu();
    let escapedOut = 0;
    document.addEventListener('keydown', () => escapedOut++, { once: true });
    await askDelete();
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog().open && root.activeElement === button(), 'closed, focus on the menu button');
    expect(escapedOut).to.equal(0);
    expect(deletes()).to.equal(0);
  });

  it('Cancel keeps the conversation; Delete asks the panel (heed-delete); both give focus back to the menu button', async () => {
    const { root, dialog, button, askDelete, deletes } = await menu();
    await askDelete();
    dialog().querySelector<HTMLButtonElement>('button[value="cancel"]')!.click();
    await waitUntil(() => !dialog().open && root.activeElement === button(), 'cancelled');
    expect(deletes()).to.equal(0);
    await askDelete();
    dialog().querySelector<HTMLButtonElement>('button[value="delete"]')!.click();
    await waitUntil(() => deletes() === 1, 'heed-delete');
    expect(dialog().open).to.equal(false);
    expect(root.activeElement).to.equal(button());
  });
});
