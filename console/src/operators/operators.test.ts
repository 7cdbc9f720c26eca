/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './operators.ts';
import type { HeedConsoleOperators } from './operators.component.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';
import type { OperatorRow } from '../state/contract.ts';

const team: OperatorRow[] = [
  {
    id: owner.id,
    email: owner.email,
    name: owner.name,
    role: 'owner',
    pending: false,
    createdAt: '2026-01-01T00:00:00Z',
    allSites: false,
    siteIds: [],
  },
  {
    id: 'op-9',
    email: 'agent@example.test',
    name: null,
    role: 'agent',
    pending: true,
    createdAt: '2026-01-02T00:00:00Z',
    allSites: false,
    siteIds: [],
  },
];

const sites = [
  { id: 'site-1', key: 'shop', name: 'Shop', conversations: 2, createdAt: '2026-01-01T00:00:00Z' },
  { id: 'site-2', key: 'blog', name: 'Blog', conversations: 0, createdAt: '2026-01-01T00:00:00Z' },
];

async function operators(me = owner, rows = team) {
  const fake = fakeConsoleApi({ operators: async () => rows, sites: async () => sites });
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

  it('invites an agent only once their sites are chosen, and shows the link once, to copy', async () => {
    const { el, root, fake } = await operators();
    const form = root.querySelector<HTMLFormElement>('section form')!;
    root.querySelector<HTMLInputElement>('input[name=email]')!.value = 'new@example.test';
    root.querySelector<HTMLInputElement>('input[name=name]')!.value = 'Nia';
    form.requestSubmit();
    await el.updateComplete;
    // neither "All sites" nor a list was chosen: nothing is assumed
    expect(form.querySelector('.site-choice .field-error')!.textContent).to.equal('Choose all sites, or the sites this agent works on.');
    expect(fake.callsOf('invite')).to.have.length(0);
    const boxes = () => [...form.querySelectorAll<HTMLInputElement>('.site-boxes input')];
    expect(boxes().every((b) => b.disabled)).to.equal(true);
    form.querySelector<HTMLInputElement>('input[name=sites][value=some]')!.click();
    await el.updateComplete;
    boxes()[0]!.click();
    form.requestSubmit();
    await waitUntil(() => root.querySelector('[aria-label="Invitation link"] pre'));
    expect(fake.callsOf('invite')[0]).to.deep.equal([{ email: 'new@example.test', name: 'Nia', role: 'agent', sites: ['site-1'] }]);
    expect(root.querySelector('[aria-label="Invitation link"] pre')!.textContent).to.equal('http://api.test/admin/#/invite/t0k3n');
    // this server sends no email: the owner is told to pass the link on
    expect(root.querySelector('[aria-label="Invitation link"] strong')!.textContent).to.equal(
      'Email is off on this server: copy the link and send it yourself.',
    );
  });

  it('says the invitation was emailed when the server sends email', async () => {
    const fake = fakeConsoleApi({
      operators: async () => team,
      sites: async () => sites,
      invite: async ({ email, name, role }) => ({
        operator: { id: 'op-2', email, name, role, pending: true, createdAt: '2026-01-01T00:00:00Z', allSites: false, siteIds: [] },
        inviteUrl: 'http://api.test/admin/#/invite/t0k3n',
        emailed: true,
      }),
    });
    const el = await fixture<HeedConsoleOperators>(html`<heed-console-operators .api=${fake.api} .me=${owner}></heed-console-operators>`);
    const root = el.shadowRoot!;
    await waitUntil(() => root.querySelector('tbody tr'), 'team shown');
    const form = root.querySelector<HTMLFormElement>('section form')!;
    root.querySelector<HTMLInputElement>('input[name=email]')!.value = 'boss@example.test';
    root.querySelector<HTMLInputElement>('input[name=name]')!.value = 'Bo';
    const role = form.querySelector<HTMLSelectElement>('select[name=role]')!;
    role.value = 'owner';
    role.dispatchEvent(new Event('change'));
    await el.updateComplete;
    form.requestSubmit();
    await waitUntil(() => root.querySelector('[aria-label="Invitation link"] strong'), 'the invitation shown');
    expect(root.querySelector('[aria-label="Invitation link"] strong')!.textContent).to.equal('Invitation emailed to boss@example.test.');
    expect(root.querySelector('[aria-label="Invitation link"] pre')!.textContent).to.equal('http://api.test/admin/#/invite/t0k3n');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('says what each role may do, in the team and in the invite form', async () => {
    const { root } = await operators();
    const roles = [...root.querySelectorAll('tbody tr')].map((tr) => tr.querySelectorAll('td')[2]!.textContent);
    expect(roles).to.deep.equal(['Owner — sites, operators and settings', 'Agent — answers conversations of their sites']);
    const options = [...root.querySelectorAll<HTMLOptionElement>('select[name=role] option')].map((o) => o.textContent);
    expect(options).to.deep.equal(['Agent — answers conversations of their sites', 'Owner — sites, operators and settings']);
  });

  it('invites an owner without asking for sites', async () => {
    const { el, root, fake } = await operators();
    const form = root.querySelector<HTMLFormElement>('section form')!;
    root.querySelector<HTMLInputElement>('input[name=email]')!.value = 'boss@example.test';
    root.querySelector<HTMLInputElement>('input[name=name]')!.value = 'Bo';
    const role = form.querySelector<HTMLSelectElement>('select[name=role]')!;
    role.value = 'owner';
    role.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(form.querySelector('.site-choice')).to.equal(null);
    form.requestSubmit();
    await waitUntil(() => fake.callsOf('invite').length === 1);
    expect(fake.callsOf('invite')[0]).to.deep.equal([{ email: 'boss@example.test', name: 'Bo', role: 'owner', sites: [] }]);
  });

  it('shows each operator’s sites: owners every site, agents all sites only when chosen, else theirs or none', async () => {
    const { root } = await operators(owner, [
      team[0]!,
      { ...team[1]!, siteIds: ['site-2'] },
      { ...team[1]!, id: 'op-8', email: 'all@example.test', allSites: true },
      { ...team[1]!, id: 'op-7', email: 'none@example.test' },
    ]);
    await waitUntil(() => root.querySelector('tbody tr:nth-child(2) .sites')!.textContent === 'Blog');
    expect([...root.querySelectorAll('tbody .sites')].map((td) => td.textContent)).to.deep.equal([
      'Every site (owner)',
      'Blog',
      'All sites',
      'No site',
    ]);
  });

  it('lets an owner choose an agent’s sites: all sites, or the ones checked', async () => {
    const { el, root, fake } = await operators();
    expect(root.querySelector(`button[aria-label="Change sites of ${owner.email}"]`)).to.equal(null);
    root.querySelector<HTMLButtonElement>('button[aria-label="Change sites of agent@example.test"]')!.click();
    await el.updateComplete;
    const form = root.querySelector<HTMLFormElement>('.sites-form')!;
    expect(form.querySelector('legend')!.textContent).to.equal('Sites agent@example.test works on');
    const only = form.querySelector<HTMLInputElement>('input[name=sites][value=some]')!;
    expect(only.checked).to.equal(true);
    expect(root.activeElement).to.equal(only);
    const boxes = [...form.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    expect(boxes.map((b) => b.labels![0]!.textContent!.trim())).to.deep.equal(['Shop', 'Blog']);
    boxes[1]!.click();
    [...form.querySelectorAll('button')].find((b) => b.textContent === 'Save sites')!.click();
    await waitUntil(() => fake.callsOf('setOperatorSites').length === 1);
    expect(fake.callsOf('setOperatorSites')[0]).to.deep.equal(['op-9', ['site-2']]);
    await waitUntil(() => !root.querySelector('.sites-form'));

    root.querySelector<HTMLButtonElement>('button[aria-label="Change sites of agent@example.test"]')!.click();
    await el.updateComplete;
    root.querySelector<HTMLInputElement>('.sites-form input[name=sites][value=all]')!.click();
    [...root.querySelectorAll<HTMLButtonElement>('.sites-form button')].find((b) => b.textContent === 'Save sites')!.click();
    await waitUntil(() => fake.callsOf('setOperatorSites').length === 2);
    expect(fake.callsOf('setOperatorSites')[1]).to.deep.equal(['op-9', 'all']);
  });

  it('is accessible with the sites form open', async () => {
    const { el, root } = await operators();
    root.querySelector<HTMLButtonElement>('button[aria-label="Change sites of agent@example.test"]')!.click();
    await el.updateComplete;
    await expect(el).shadowDom.to.be.accessible();
  });

  it('shows an agent the team without invite or remove', async () => {
    const { root } = await operators({ ...owner, role: 'agent' });
    expect(root.querySelector('form')).to.equal(null);
    expect(root.querySelector('button')).to.equal(null);
  });
});
