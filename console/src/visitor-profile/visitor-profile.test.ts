/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './visitor-profile.ts';
import type { HeedConsoleVisitorProfile } from './visitor-profile.component.ts';
import { fakeConsoleApi, item, owner, refusal, visitorProfile } from '../test-support/fake-console-api.ts';
import type { Me, VisitorProfile } from '../state/contract.ts';

const CONVERSATION = '00000000-0000-4000-8000-00000000c001';

async function shown(profile: () => Promise<VisitorProfile>, width = 320, me: Me = owner) {
  const fake = fakeConsoleApi({ visitorProfile: profile });
  const el = await fixture<HeedConsoleVisitorProfile>(
    html`<div style=${`width: ${width}px`}>
      <heed-visitor-profile .api=${fake.api} .me=${me} .conversationId=${CONVERSATION}></heed-visitor-profile>
    </div>`,
  ).then((wrap) => wrap.querySelector('heed-visitor-profile')!);
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('[data-field="page"], [role="alert"]'), 'the profile shown');
  return { el, root, fake };
}

/** Each term of a definition list with its value, as a screen reader pairs them. */
function terms(root: ShadowRoot, heading: string): Record<string, string> {
  const h = [...root.querySelectorAll('h3')].find((x) => x.textContent === heading)!;
  const dl = root.querySelector(`dl[aria-labelledby="${h.id}"]`)!;
  return Object.fromEntries(
    [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent!.trim(), dt.nextElementSibling!.textContent!.replace(/\s+/g, ' ').trim()]),
  );
}

describe('heed-visitor-profile', () => {
  it('shows who the visitor is, where they are and came from, and their earlier conversations as links', async () => {
    const { root } = await shown(async () => visitorProfile());
    expect(root.querySelector('h2')!.textContent).to.equal('Visitor');
    expect(terms(root, 'Identity')).to.deep.equal({
      Name: 'Ines Costa',
      Email: 'ines@example.test',
      'User id': 'customer-42',
      plan: 'pro',
      seats: '12',
    });
    const visit = terms(root, 'This visit');
    expect(visit['Page now']).to.equal('Trail runner — Outdoor shop https://shop.example/boots/trail-runner?size=42');
    expect(visit['Came from']).to.equal('https://search.example/');
    expect(visit.Browser).to.equal('Chrome 131 on macOS');
    expect(visit.Language).to.contain('pt-BR');
    expect(visit['Time zone']).to.match(/^Europe\/Lisbon \(now \d\d:\d\d\)$/);
    const page = root.querySelector<HTMLAnchorElement>('[data-field="page"] a')!;
    expect([page.href, page.target, page.rel]).to.deep.equal([
      'https://shop.example/boots/trail-runner?size=42',
      '_blank',
      'noopener noreferrer',
    ]);
    const earlier = root.querySelector<HTMLAnchorElement>('ul[aria-labelledby="earlier-h"] a')!;
    expect(earlier.textContent).to.equal('Return of a jacket');
    expect(earlier.getAttribute('href')).to.equal('#/conversations/00000000-0000-4000-8000-0000000000e1');
    expect(earlier.closest('li')!.textContent).to.contain('Resolved');
  });

  it('says what is not known: an anonymous visitor, pages not shared, no referrer, a private earlier conversation without its title', async () => {
    const { root } = await shown(async () =>
      visitorProfile({
        identified: null,
        pagesShared: false,
        page: null,
        referrer: null,
        browser: null,
        userAgent: 'curl/8.5.0',
        language: null,
        earlier: [{ ...visitorProfile().earlier[0]!, title: null, private: true, status: 'open' }],
      }),
    );
    expect(root.textContent).to.contain('Anonymous: the site did not identify this visitor.');
    const visit = terms(root, 'This visit');
    expect(visit['Page now']).to.contain('Not shared');
    expect(visit['Came from']).to.contain('Not known');
    // a user agent it could not read is shown as it came
    expect(visit.Browser).to.equal('curl/8.5.0');
    expect(root.querySelector('ul[aria-labelledby="earlier-h"] a')!.textContent).to.equal('Private conversation');
  });

  it('never makes a link of an address that is not on the web', async () => {
    const { root } = await shown(async () =>
      visitorProfile({ page: { url: 'javascript:alert(1)', title: 'Odd' }, referrer: 'data:text/html,hi' }),
    );
    expect(root.querySelectorAll('[data-field="page"] a, [data-field="referrer"] a')).to.have.length(0);
    expect(terms(root, 'This visit')['Page now']).to.contain('Odd');
  });

  it('fits a 320 px pane: a long address wraps instead of widening it', async () => {
    const long = `https://shop.example/${'very-long-path-segment-without-spaces-'.repeat(12)}?q=${'x'.repeat(200)}`;
    const { el } = await shown(async () => visitorProfile({ page: { url: long, title: null }, referrer: long }));
    expect(el.scrollWidth).to.be.at.most(320);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
  });

  it('follows the visitor: reloads when the live list says this conversation or another of theirs changed', async () => {
    let page = 'Boots';
    const { root, fake } = await shown(async () => visitorProfile({ page: { url: 'https://shop.example/p', title: page } }));
    expect(terms(root, 'This visit')['Page now']).to.contain('Boots');
    page = 'Pricing';
    fake.emit(item({ id: CONVERSATION }));
    await waitUntil(() => terms(root, 'This visit')['Page now']!.includes('Pricing'), 'reloaded for this conversation');
    page = 'Cart';
    // the visitor's earlier conversation (the API re-sends their newest ones when they move to another page)
    fake.emit(item({ id: '00000000-0000-4000-8000-0000000000e1', visitor: { id: 'v-1', externalId: 'customer-42', name: 'Ines Costa' } }));
    await waitUntil(() => terms(root, 'This visit')['Page now']!.includes('Cart'), 'reloaded for another of theirs');
    expect(fake.callsOf('visitorProfile')).to.deep.equal([[CONVERSATION], [CONVERSATION], [CONVERSATION]]);
  });

  it('loads the profile of the conversation it is given next, and says when it cannot', async () => {
    const { el, root, fake } = await shown(async () => visitorProfile());
    const other = '00000000-0000-4000-8000-00000000c002';
    fake.api.visitorProfile = async () => {
      throw refusal('NOT_FOUND', null, 'No such conversation.');
    };
    el.conversationId = other;
    await waitUntil(() => root.querySelector('[role="alert"]'), 'the refusal shown');
    expect(root.querySelector('[role="alert"]')!.textContent).to.contain('No such conversation');
    // the previous visitor's details are gone
    expect(root.textContent).not.to.contain('Ines Costa');
  });

  it('offers everyone the visitor’s data as a download, and deleting it to owners only', async () => {
    const { root } = await shown(async () => visitorProfile());
    const download = root.querySelector<HTMLAnchorElement>('a[download]')!;
    expect(download.textContent).to.equal('Download data');
    expect(download.getAttribute('href')).to.equal(`/admin/export/visitor.json?conversationId=${CONVERSATION}`);
    const erase = root.querySelector('heed-visitor-erase')!;
    expect(erase.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal('Delete visitor data…');

    const agent = await shown(async () => visitorProfile(), 320, { ...owner, role: 'agent' });
    expect(agent.root.querySelector('a[download]')!.textContent).to.equal('Download data');
    expect(agent.root.querySelectorAll('heed-visitor-erase')).to.have.length(0);
  });

  it('reloads when one of the visitor’s earlier conversations is deleted', async () => {
    const { fake } = await shown(async () => visitorProfile());
    fake.emitRemoved('00000000-0000-4000-8000-0000000000e1');
    await waitUntil(() => fake.callsOf('visitorProfile').length === 2, 'reloaded');
  });

  it('passes axe', async () => {
    const { el } = await shown(async () => visitorProfile());
    await expect(el).shadowDom.to.be.accessible();
  });
});
