/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './canned-replies.ts';
import type { HeedCannedReplies } from './canned-replies.component.ts';
import type { CannedReply } from '../state/contract.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

async function cannedReplies(me = owner, over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const stored: CannedReply[] = [{ id: 'r1', shortcut: 'refund', content: 'Refunds take 5 days.', updatedAt: '2026-01-01T00:00:00Z' }];
  const fake = fakeConsoleApi({
    cannedReplies: async () => [...stored],
    saveCannedReply: async (_siteId, r) => {
      const saved = { id: r.id ?? `r${stored.length + 1}`, shortcut: r.shortcut, content: r.content, updatedAt: '2026-01-02T00:00:00Z' };
      stored.push(saved);
      return saved;
    },
    ...over,
  });
  const el = await fixture<HeedCannedReplies>(html`<heed-canned-replies .api=${fake.api} .me=${me} siteId="site-1"></heed-canned-replies>`);
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('[data-canned]'), 'the list');
  return { el, root, fake };
}

describe('heed-canned-replies', () => {
  it("lists the site's canned replies by shortcut, and an owner adds one", async () => {
    const { root, fake } = await cannedReplies();
    expect(root.querySelector('[data-canned] strong')!.textContent).to.equal('/refund');
    root.querySelector<HTMLInputElement>('#canned-shortcut')!.value = '/shipping';
    root.querySelector<HTMLTextAreaElement>('#canned-content')!.value = 'We ship in 2 days.';
    root.querySelector('form')!.requestSubmit();
    await waitUntil(() => root.querySelectorAll('[data-canned]').length === 2, 'the new reply listed');
    expect(fake.callsOf('saveCannedReply')).to.deep.equal([['site-1', { shortcut: 'shipping', content: 'We ship in 2 days.' }]]);
  });

  it('says a taken shortcut at the field, and moves focus there', async () => {
    const { root } = await cannedReplies(owner, {
      saveCannedReply: async () => Promise.reject(refusal('CONFLICT', 'shortcut_taken', 'Another canned reply already uses /refund.')),
    });
    root.querySelector<HTMLInputElement>('#canned-shortcut')!.value = 'refund';
    root.querySelector<HTMLTextAreaElement>('#canned-content')!.value = 'Again';
    root.querySelector('form')!.requestSubmit();
    await waitUntil(() => root.querySelector('#canned-shortcut[aria-invalid=true]'), 'the field marked');
    expect(root.querySelector('#canned-shortcut-note')!.textContent).to.equal('Another canned reply already uses /refund.');
    expect(root.activeElement).to.equal(root.querySelector('#canned-shortcut'));
  });

  it('lets an agent read but not write, and is accessible', async () => {
    const { el, root } = await cannedReplies({ ...owner, role: 'agent' });
    expect(root.querySelector('form')).to.equal(null);
    expect(root.querySelector('[data-canned] button')).to.equal(null);
    await expect(el).shadowDom.to.be.accessible();
  });
});
