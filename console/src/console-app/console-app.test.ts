/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './console-app.ts';
import type { HeedConsoleApp } from './console-app.component.ts';
import { fakeConsoleApi, item, transcript } from '../test-support/fake-console-api.ts';

async function app(fake = fakeConsoleApi()) {
  const el = await fixture<HeedConsoleApp>(html`<heed-console-app .api=${fake.api}></heed-console-app>`);
  return { el, root: el.shadowRoot!, fake };
}

describe('heed-console-app', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));

  it('shows the sign-in when nobody is signed in, then the console once signed in', async () => {
    // the list never answers, so its own announcement does not replace the sign-in's
    const { root } = await app(fakeConsoleApi({ me: async () => null, conversations: () => new Promise(() => {}) }));
    await waitUntil(() => root.querySelector('heed-sign-in'), 'sign-in shown');
    expect(document.title).to.equal('Sign in · Heed console');
    root.querySelector('heed-sign-in')!.dispatchEvent(
      new CustomEvent('heed-signed-in', {
        detail: { operator: { id: 'o', email: 'a@b.c', name: null, role: 'agent' } },
        bubbles: true,
        composed: true,
      }),
    );
    await waitUntil(() => root.querySelector('nav'), 'layout shown');
    // read as one sentence, the role its own word (the pill beside the name has no space of its own)
    expect(root.querySelector('.who')!.textContent).to.equal('Signed in as a@b.c, agent');
    await waitUntil(() => root.querySelector('[role=status]')!.textContent === 'Signed in as a@b.c.', 'announced');
  });

  it('navigates by hash, marks the current section and names the view in the document title', async () => {
    const { el, root } = await app();
    await waitUntil(() => root.querySelector('heed-console-inbox'), 'conversations by default');
    expect(document.title).to.equal('Conversations · Heed console');
    const links = [...root.querySelectorAll('nav a')];
    expect(links.map((a) => a.textContent)).to.deep.equal(['Overview', 'Conversations', 'Sites', 'Operators']);
    location.hash = '#/sites';
    await waitUntil(() => root.querySelector('heed-console-sites'), 'sites shown');
    await el.updateComplete;
    expect(root.querySelector('nav a[aria-current=page]')!.textContent).to.equal('Sites');
    expect(document.title).to.equal('Sites · Heed console');
    expect(root.activeElement?.tagName).to.equal('MAIN');
  });

  it('titles a transcript after its conversation', async () => {
    const c = item({ title: 'Boots in green' });
    const { root } = await app(fakeConsoleApi({ transcript: async () => transcript({ ...c }) }));
    location.hash = `#/conversations/${c.id}`;
    await waitUntil(() => document.title === 'Boots in green · Transcript · Heed console', `title was ${document.title}`);
    expect(root.querySelector('heed-console-inbox')!.shadowRoot!.querySelector('heed-console-transcript')).to.exist;
  });

  it('goes back to the sign-in when a view finds the session gone', async () => {
    const { root } = await app();
    await waitUntil(() => root.querySelector('heed-console-inbox'));
    root.querySelector('heed-console-inbox')!.dispatchEvent(new CustomEvent('heed-signed-out', { bubbles: true, composed: true }));
    await waitUntil(() => root.querySelector('heed-sign-in'), 'sign-in shown');
  });

  it('has one live region and no serious accessibility violations', async () => {
    const { el, root } = await app();
    await waitUntil(() => root.querySelector('heed-console-inbox'));
    expect(root.querySelectorAll('[aria-live]')).to.have.length(1);
    await expect(el).shadowDom.to.be.accessible();
  });
});
