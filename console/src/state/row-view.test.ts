/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import '../../../widget/src/conversation-row/conversation-row.ts';
import type { HeedConversationRow } from '../../../widget/src/conversation-row/conversation-row.component.ts';
import { item } from '../test-support/fake-console-api.ts';
import { rowViewOf } from './row-view.ts';

describe('console rows drawn by the widget’s conversation row', () => {
  it('show exactly the attention state the server decided for this operator', async () => {
    for (const attention of ['live', 'input_needed', 'unviewed', 'waiting', 'default'] as const) {
      for (const lastAssistantAt of [null, '2026-01-01T09:30:00.000Z']) {
        const c = item({ attention, lastAssistantAt, title: `A ${attention}`, waitingForPerson: attention === 'waiting' });
        const el = await fixture<HeedConversationRow>(html`<heed-conversation-row .conversation=${rowViewOf(c)}></heed-conversation-row>`);
        const button = el.shadowRoot!.querySelector('button')!;
        expect(button.dataset.state, `${attention} after ${lastAssistantAt}`).to.equal(attention);
        expect(button.textContent).to.contain(`A ${attention}`);
      }
    }
  });

  it('name a private conversation without its words', async () => {
    const c = item({ private: true, title: null, excerpt: null });
    const el = await fixture<HeedConversationRow>(html`<heed-conversation-row .conversation=${rowViewOf(c)}></heed-conversation-row>`);
    expect(el.shadowRoot!.querySelector('.title')!.textContent).to.equal('Private conversation');
  });
});
