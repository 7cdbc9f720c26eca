/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './panel.ts';
import type { HeedPanel } from './panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';
import type { InputRequestView } from '../state/types.ts';

const TODOS = [{ id: 't1', text: 'Check stock in Oslo', createdAt: '2026-01-01T10:00:00.000Z' }];

async function setup(opts: { allowFreeText?: boolean; choices?: string[] } = {}) {
  const request: InputRequestView = {
    id: '20000000-0000-4000-8000-000000000001',
    question: 'Which colour would you like?',
    choices: opts.choices ?? ['Green', 'Blue'],
    allowFreeText: opts.allowFreeText ?? false,
    createdAt: '2026-01-01T10:01:00.000Z',
  };
  const c = conversation({ title: 'Ridge 40', inputNeeded: true, attention: 'input_needed', inputRequest: request, openTodos: TODOS });
  const api = new FakeApi({ conversations: [c] });
  const { id, choices, allowFreeText } = request;
  api.messages.set(c.id, [
    message({ conversationId: c.id, role: 'user', content: 'Do you have the Ridge 40?', state: 'answered' }),
    message({ conversationId: c.id, content: request.question, inputRequest: { id, choices, allowFreeText, status: 'open' } }),
  ]);
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open closable></heed-panel>`);
  await el.openConversation(c.id);
  await settle();
  const list = el.shadowRoot!.querySelector('heed-message-list')!;
  const render = async () => {
    await el.updateComplete;
    await list.updateComplete;
  };
  await render();
  const choiceButtons = () => [...list.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="choice"]')];
  const hint = () => list.shadowRoot!.querySelector('.hint');
  const composer = el.shadowRoot!.querySelector('heed-composer')!;
  const type = async (text: string) => {
    const box = composer.shadowRoot!.querySelector('textarea')!;
    box.value = text;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await settle();
  };
  return { el, api, store, c, request, list, render, choiceButtons, hint, composer, type };
}

describe('heed-panel input needed', () => {
  it('shows the open question with its choices as buttons, in a group', async () => {
    const { list, choiceButtons } = await setup();
    expect(list.shadowRoot!.textContent).to.contain('Which colour would you like?');
    expect(choiceButtons().map((b) => b.textContent)).to.deep.equal(['Green', 'Blue']);
    expect(choiceButtons().every((b) => !b.disabled)).to.be.true;
    expect(list.shadowRoot!.querySelector('[role="group"]')!.getAttribute('aria-label')).to.equal('Choices');
  });

  it('answers with a click: the send carries answersRequestId, choices are disabled while it travels and once answered', async () => {
    const { api, c, request, render, choiceButtons } = await setup();
    let release!: () => void;
    api.hold = new Promise((r) => (release = r));
    choiceButtons()[0]!.click();
    await settle();
    await render();
    expect(api.callsOf('send')[0]![0]).to.include({ conversationId: c.id, content: 'Green', answersRequestId: request.id });
    expect(
      choiceButtons().every((b) => b.disabled),
      'while sending',
    ).to.be.true;
    choiceButtons()[1]!.click();
    release();
    api.hold = null;
    await settle();
    await render();
    expect(api.callsOf('send'), 'one answer only').to.have.length(1);
    expect(
      choiceButtons().every((b) => b.disabled),
      'answered',
    ).to.be.true;
  });

  it('sends an answer the server refuses (the question closed meanwhile) as a plain message, never losing it', async () => {
    const { api, el, request } = await setup();
    const send = api.send.bind(api);
    const attempts: (string | undefined)[] = [];
    api.send = async (input) => {
      attempts.push(input.answersRequestId);
      if (input.answersRequestId) throw new Error('BAD_REQUEST: this question was already answered');
      return send(input);
    };
    el.threads!.send(el.activeId!, 'Green', request.id);
    await settle();
    await settle();
    expect(attempts).to.deep.equal([request.id, undefined]);
    const shown = el.store!.state.threads.get(el.activeId!)!.at(-1)!;
    expect(shown.content).to.equal('Green');
    expect(shown.pending).to.be.undefined;
    expect(shown.sendError).to.be.undefined;
  });

  it('re-enables the choices when the answer could not be sent at all', async () => {
    const { api, render, choiceButtons } = await setup();
    api.send = async () => {
      throw new Error('INTERNAL_SERVER_ERROR');
    };
    choiceButtons()[0]!.click();
    await settle();
    await render();
    expect(choiceButtons().every((b) => !b.disabled)).to.be.true;
  });

  it('closes the question when the server says it is no longer open (answered in another tab)', async () => {
    const { api, c, render, choiceButtons } = await setup();
    const answered = { ...c, inputNeeded: false, inputRequest: null };
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: answered });
    await render();
    expect(choiceButtons().every((b) => b.disabled)).to.be.true;
  });

  it('with free text allowed, hints that the next message answers it and the composer send carries answersRequestId', async () => {
    const { api, request, hint, type, composer } = await setup({ allowFreeText: true });
    expect(hint()!.textContent).to.contain('your next message answers this question');
    expect(composer.shadowRoot!.querySelector('textarea')!.placeholder).to.equal('Type your answer…');
    await type('Dark green, please');
    expect(api.callsOf('send')[0]![0]).to.include({ content: 'Dark green, please', answersRequestId: request.id });
    await type('And a second thing');
    expect(api.callsOf('send')[1]![0], 'the question was answered').to.not.have.property('answersRequestId');
  });

  it('without free text, a typed message is a plain message, not an answer', async () => {
    const { api, hint, type } = await setup({ allowFreeText: false });
    expect(hint()).to.be.null;
    await type('Actually, a question first');
    expect(api.callsOf('send')[0]![0]).to.not.have.property('answersRequestId');
  });

  it('lists the open tasks in a collapsed disclosure under the heading, live', async () => {
    const { el, api, c } = await setup();
    const todos = el.shadowRoot!.querySelector('heed-todo-list')!;
    await todos.updateComplete;
    expect(todos.previousElementSibling!.localName).to.equal('heed-heading');
    const toggle = todos.shadowRoot!.querySelector('button')!;
    expect(toggle.textContent!.trim()).to.equal('Open tasks (1)');
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    toggle.click();
    await todos.updateComplete;
    expect(todos.shadowRoot!.querySelector('li')!.textContent).to.equal('Check stock in Oslo');
    const done = { ...c, openTodos: [] };
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: done });
    await el.updateComplete;
    await todos.updateComplete;
    expect(todos.shadowRoot!.querySelector('button')).to.be.null;
  });

  it('passes axe with the question, the hint and the open tasks', async () => {
    const { el } = await setup({ allowFreeText: true });
    const todos = el.shadowRoot!.querySelector('heed-todo-list')!;
    todos.shadowRoot!.querySelector('button')!.click();
    await todos.updateComplete;
    await expect(el).shadowDom.to.be.accessible();
  });
});
