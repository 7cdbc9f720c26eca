/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './transcript.ts';
import type { HeedConsoleTranscript } from './transcript.component.ts';
import { fakeConsoleApi, owner, transcript } from '../test-support/fake-console-api.ts';

async function open(failed = false, over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const data = transcript({}, failed);
  const fake = fakeConsoleApi({ transcript: async () => data, ...over });
  const el = await fixture<HeedConsoleTranscript>(html`<heed-console-transcript .api=${fake.api} .me=${owner} .conversationId=${data.conversation.id}></heed-console-transcript>`);
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('h1'), 'transcript shown');
  return { el, root, fake, data };
}

describe('heed-console-transcript', () => {
  it('shows every message with who wrote it and the exact time in both zones', async () => {
    const { root } = await open();
    const messages = [...root.querySelectorAll('.message')];
    expect(messages.map((m) => m.querySelector('strong')!.textContent)).to.deep.equal(['Visitor', 'Visitor', 'Visitor', 'AI']);
    expect(messages[0]!.querySelector('time')!.getAttribute('datetime')).to.equal('2026-01-01T10:00:01.000Z');
    expect(messages[0]!.querySelector('.visitor-time')!.textContent).to.match(/visitor: .*19:00:01/);
  });

  it('shows the batched run: model, tokens, first token, duration and its three claimed messages', async () => {
    const { root } = await open();
    const cells = [...root.querySelectorAll('tr[data-run] td')].map((td) => td.textContent!.trim());
    expect(cells).to.include.members(['completed', 'test-model', '1', '321 / 42', '850 ms', '5.0 s', '3 (#1, #2, #3)']);
  });

  it('shows title history and the cost of title checks', async () => {
    const { root } = await open();
    expect(root.querySelector('[aria-label="Title history"]')!.textContent).to.contain('generated: Sizes and shipping');
    expect(root.querySelector('[aria-label="Title checks table"]')!.textContent).to.contain('$0.00012');
  });

  it('marks the conversation read for this operator on opening', async () => {
    const { fake, data } = await open();
    await waitUntil(() => fake.callsOf('markRead').length === 1);
    expect(fake.callsOf('markRead')[0]).to.deep.equal([data.conversation.id]);
  });

  it('offers Retry on a failed reply and retries', async () => {
    const { root, fake, data } = await open(true);
    expect(root.querySelector('.message[data-failed=true]')!.textContent).to.contain('model_timeout');
    const retry = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Retry')!;
    retry.click();
    await waitUntil(() => fake.callsOf('retry').length === 1);
    expect(fake.callsOf('retry')[0]).to.deep.equal([data.conversation.id]);
  });

  it('renames, pinned when asked, and asks for a retitle', async () => {
    const { root, fake, data } = await open();
    root.querySelector<HTMLInputElement>('input[name=title]')!.value = 'Refund for order 1042';
    root.querySelector<HTMLInputElement>('input[name=pin]')!.checked = true;
    root.querySelector<HTMLFormElement>('form.rename')!.requestSubmit();
    await waitUntil(() => fake.callsOf('rename').length === 1);
    expect(fake.callsOf('rename')[0]).to.deep.equal([data.conversation.id, 'Refund for order 1042', true]);
    await waitUntil(() => [...root.querySelectorAll('button')].every((b) => !b.disabled));
    [...root.querySelectorAll('button')].find((b) => b.textContent === 'Retitle')!.click();
    await waitUntil(() => fake.callsOf('retitle').length === 1);
  });

  it('reloads when the conversation changes on the live stream', async () => {
    const { fake, data } = await open();
    const before = fake.callsOf('transcript').length;
    fake.emit({ ...data.conversation, attention: 'live' });
    await waitUntil(() => fake.callsOf('transcript').length === before + 1, 'reloaded');
  });

  it('is accessible', async () => {
    const { el } = await open(true);
    await expect(el).shadowDom.to.be.accessible();
  });
});
