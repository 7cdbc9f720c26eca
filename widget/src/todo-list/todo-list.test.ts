/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './todo-list.ts';
import type { HeedTodoList } from './todo-list.component.ts';

const todos = [
  { id: 't1', text: 'Check stock of the Ridge 40 in green', createdAt: '2026-01-01T10:00:00.000Z' },
  { id: 't2', text: 'Send the return label', createdAt: '2026-01-01T10:01:00.000Z' },
];

describe('heed-todo-list', () => {
  it('renders nothing without open tasks', async () => {
    const el = await fixture<HeedTodoList>(html`<heed-todo-list .todos=${[]}></heed-todo-list>`);
    expect(el.shadowRoot!.querySelector('button')).to.be.null;
    expect(el.getBoundingClientRect().height).to.equal(0);
  });

  it('is a collapsed disclosure "Open tasks (N)" that shows and hides the list', async () => {
    const el = await fixture<HeedTodoList>(html`<heed-todo-list .todos=${todos}></heed-todo-list>`);
    const button = el.shadowRoot!.querySelector('button')!;
    const list = el.shadowRoot!.querySelector('ul')!;
    expect(button.textContent!.trim()).to.equal('Open tasks (2)');
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    expect(button.getAttribute('aria-controls')).to.equal(list.id);
    expect(list.offsetHeight).to.equal(0);
    button.click();
    await el.updateComplete;
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(todos.map((t) => t.text));
    expect(list.offsetHeight).to.be.greaterThan(0);
    await expect(el).shadowDom.to.be.accessible();
    button.click();
    await el.updateComplete;
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    expect(list.offsetHeight).to.equal(0);
  });

  it('follows the list as tasks are added and completed', async () => {
    const el = await fixture<HeedTodoList>(html`<heed-todo-list .todos=${todos}></heed-todo-list>`);
    el.todos = todos.slice(1);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('Open tasks (1)');
  });
});
