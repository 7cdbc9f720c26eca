/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './api-keys.ts';
import type { HeedApiKeys } from './api-keys.component.ts';
import type { ApiKeyRow } from '../state/contract.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';

const billing: ApiKeyRow = {
  id: 'key-1',
  name: 'Billing',
  prefix: 'hk_7f3a',
  createdAt: '2026-01-01T00:00:00Z',
  lastUsedAt: null,
  revokedAt: null,
};
const old: ApiKeyRow = {
  id: 'key-0',
  name: 'Old',
  prefix: 'hk_0000',
  createdAt: '2025-12-01T00:00:00Z',
  lastUsedAt: '2025-12-02T00:00:00Z',
  revokedAt: '2025-12-03T00:00:00Z',
};

async function keys(list: ApiKeyRow[], me = owner) {
  let rows = list;
  const fake = fakeConsoleApi({
    apiKeys: async () => rows,
    createApiKey: async (_s, name) => {
      rows = [{ id: 'key-new', name, prefix: 'hk_ab12', createdAt: '2026-01-02T00:00:00Z', lastUsedAt: null, revokedAt: null }, ...rows];
      return { id: 'key-new', name, prefix: 'hk_ab12', createdAt: '2026-01-02T00:00:00Z', key: 'hk_ab12_secret_once' };
    },
  });
  const el = await fixture<HeedApiKeys>(html`<heed-api-keys .api=${fake.api} .me=${me} siteId="site-1" siteKey="shop"></heed-api-keys>`);
  const root = el.shadowRoot!;
  await waitUntil(() => !root.textContent!.includes('Loading'), 'keys shown');
  const button = (name: string) =>
    [...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent!.trim()) === name)!;
  return { el, root, fake, button };
}

describe('heed-api-keys', () => {
  it('lists keys with prefix, created, last used and revoked', async () => {
    const { root, button } = await keys([billing, old]);
    const rows = [...root.querySelectorAll('tbody tr')].map((tr) => tr.textContent!.replace(/\s+/g, ' ').trim());
    expect(rows[0]).to.contain('Billing').and.contain('hk_7f3a…').and.contain('Never').and.contain('Active');
    expect(rows[1]).to.contain('Revoked');
    expect(button('Revoke Billing')).to.exist;
    expect(button('Revoke Old')).to.equal(undefined);
  });

  it('creates a key with a name and shows it once, with a copy button and a warning', async () => {
    const { el, root, fake, button } = await keys([]);
    button('Create key').click();
    await el.updateComplete;
    expect(root.querySelector('#key-name-note')!.textContent).to.equal('Give the key a name.');
    root.querySelector<HTMLInputElement>('#key-name')!.value = 'Order service';
    button('Create key').click();
    await waitUntil(() => root.querySelector('[aria-label="New API key"]'));
    expect(fake.callsOf('createApiKey')).to.deep.equal([['site-1', 'Order service']]);
    const shown = root.querySelector('[aria-label="New API key"]')!;
    expect(shown.querySelector('pre')!.textContent).to.equal('hk_ab12_secret_once');
    expect(shown.textContent).to.contain('shown only once');
    expect(button('Copy key')).to.exist;
    await waitUntil(() => root.querySelectorAll('tbody tr').length === 1);
    button('I have stored it').click();
    await el.updateComplete;
    expect(root.querySelector('[aria-label="New API key"]')).to.equal(null);
    expect(root.textContent).to.not.contain('hk_ab12_secret_once');
  });

  it('revokes only after the confirmation', async () => {
    const { root, fake, button } = await keys([billing]);
    button('Revoke Billing').click();
    const dialog = root.querySelector('heed-confirm-dialog')!.shadowRoot!;
    await waitUntil(() => dialog.querySelector('dialog')!.open);
    expect(dialog.querySelector('h2')!.textContent).to.equal('Revoke Billing?');
    dialog.querySelector<HTMLButtonElement>('button.danger')!.click();
    await waitUntil(() => fake.callsOf('revokeApiKey').length === 1);
    expect(fake.callsOf('revokeApiKey')[0]).to.deep.equal(['site-1', 'key-1']);
  });

  it('shows an agent the list only', async () => {
    const { root } = await keys([billing], { ...owner, role: 'agent' });
    expect(root.querySelector('form')).to.equal(null);
    expect(root.querySelector('section > .table-wrap button')).to.equal(null);
  });

  it('is accessible', async () => {
    const { el } = await keys([billing, old]);
    await expect(el).shadowDom.to.be.accessible();
  });
});
