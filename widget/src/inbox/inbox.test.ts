/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './inbox.ts';
import type { HeedInbox } from './inbox.component.ts';
import { conversation } from '../test-support/fake-api.ts';

describe('heed-inbox', () => {
  it('shows the question on the card of a conversation waiting for input, in the amber state', async () => {
    const waiting = conversation({
      title: 'Sizes',
      inputNeeded: true,
      excerpt: 'Older reply',
      inputRequest: {
        id: 'q1',
        question: 'Which size do you wear?',
        choices: ['S', 'M'],
        allowFreeText: false,
        createdAt: '2026-01-01T10:00:00.000Z',
      },
    });
    const el = await fixture<HeedInbox>(html`<heed-inbox .conversations=${[waiting, conversation()]}></heed-inbox>`);
    const items = el.shadowRoot!.querySelectorAll('li');
    expect(items).to.have.length(1);
    expect(items[0]!.dataset.state).to.equal('input_needed');
    expect(items[0]!.textContent).to.contain('Input needed');
    expect(items[0]!.querySelector('.excerpt')!.textContent).to.equal('Which size do you wear?');
    expect(getComputedStyle(items[0]!).borderInlineStartColor).to.equal('rgb(160, 79, 0)');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('shows a conversation waiting for a person with that text and its own colour', async () => {
    const waiting = conversation({ title: 'Refund', waitingForPerson: true, excerpt: 'A person will reply here.' });
    const el = await fixture<HeedInbox>(html`<heed-inbox .conversations=${[waiting, conversation()]}></heed-inbox>`);
    const items = el.shadowRoot!.querySelectorAll('li');
    expect(items).to.have.length(1);
    expect(items[0]!.dataset.state).to.equal('waiting');
    expect(items[0]!.querySelector('.state')!.textContent).to.equal('Waiting for a person');
    expect(getComputedStyle(items[0]!).borderInlineStartColor).to.equal('rgb(102, 57, 186)');
    await expect(el).shadowDom.to.be.accessible();
  });
});
