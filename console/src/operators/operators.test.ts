/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './operators.ts';
import type { HeedConsoleOperators } from './operators.component.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';
import type { OperatorRow } from '../state/contract.ts';

const team: OperatorRow[] = [
  { id: owner.id, email: owner.email, name: owner.name, role: 'owner', pending: false, createdAt: '2026-01-01T00:00:00Z' },
  { id: 'op-9', email: 'agent@example.test', name: null, role: 'agent', pending: true, createdAt: '2026-01-02T00:00:00Z' },
];

async function operators(me = owner) {
  const fake = fakeConsoleApi({ operators: async () => team });
  const el = await fixture<HeedConsoleOperators>(html`<heed-console-operators .api=${fake.api} .me=${me}></heed-console-operators>`);
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('tbody tr'), 'team shown');
  return { el, root, fake };
}

describe('heed-console-operators', () => {
  it('lists the team with pending invitations, and offers Remove for others only', async () => {
    const { root } = await operators();
    const rows = [...root.querySelectorAll('tbody tr')].map((tr) => tr.textContent!.replace(/\s+/g, ' ').trim());
    expect(rows[0]).to.contain('You');
    expect(rows[1]).to.contain('Invited');
    expect(root.querySelector('button[aria-label="Remove agent@example.test"]')).to.exist;
  });

  it('invites and shows the link once, to copy', async () => {
    const { root, fake } = await operators();
    root.querySelector<HTMLInputElement>('input[name=email]')!.value = 'new@example.test';
    root.querySelector<HTMLInputElement>('input[name=name]')!.value = 'Nia';
    root.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await waitUntil(() => root.querySelector('[aria-label="Invitation link"] pre'));
    expect(fake.callsOf('invite')[0]).to.deep.equal([{ email: 'new@example.test', name: 'Nia', role: 'agent' }]);
    expect(root.querySelector('[aria-label="Invitation link"] pre')!.textContent).to.equal('http://api.test/admin/#/invite/t0k3n');
  });

  it('shows an agent the team without invite or remove', async () => {
    const { root } = await operators({ ...owner, role: 'agent' });
    expect(root.querySelector('form')).to.equal(null);
    expect(root.querySelector('button')).to.equal(null);
  });
});
