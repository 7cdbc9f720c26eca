/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './site-editor.ts';
import type { HeedSiteEditor } from './site-editor.component.ts';
import { MB } from '../state/site-form.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

async function editor(siteId: string | null, fake = fakeConsoleApi(), me = owner) {
  const el = await fixture<HeedSiteEditor>(html`<heed-site-editor .api=${fake.api} .me=${me} .siteId=${siteId}></heed-site-editor>`);
  const root = el.shadowRoot!;
  const field = (name: string) => root.querySelector<HTMLInputElement>(`[name=${name}]`)!;
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === text)!;
  return { el, root, fake, field, button };
}

describe('heed-site-editor', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));

  it('creates a site from the form and opens it', async () => {
    const { field, button, fake } = await editor(null);
    field('name').value = 'Outdoor shop';
    field('allowedOrigins').value = 'https://outdoor.example';
    field('greeting').value = 'Hi! Ask me about boots.';
    button('Create site').click();
    await waitUntil(() => fake.callsOf('createSite').length === 1);
    expect(fake.callsOf('createSite')[0]![0]).to.deep.include({
      name: 'Outdoor shop',
      allowedOrigins: ['https://outdoor.example'],
      greeting: 'Hi! Ask me about boots.',
      accentColor: null,
    });
    await waitUntil(() => location.hash === '#/sites/site-new');
  });

  it('shows the server’s field errors beside their fields, focusing the first', async () => {
    const bad = refusal('BAD_REQUEST', null, 'invalid', { fieldErrors: { model: ['at most 100 characters'] } });
    const { root, field, button } = await editor(null, fakeConsoleApi({ createSite: async () => Promise.reject(bad) }));
    field('name').value = 'Shop';
    field('model').value = 'm';
    button('Create site').click();
    await waitUntil(() => root.querySelector('.field-error'));
    expect(root.querySelector('#model-note')!.textContent).to.equal('at most 100 characters');
    expect(field('model').getAttribute('aria-invalid')).to.equal('true');
    await waitUntil(() => root.activeElement === field('model'), 'focus on the field');
    expect(root.querySelector('[role="alert"]')!.textContent).to.equal('One field above needs a change.');
  });

  it('says what an accent colour must be at the field, before asking the server', async () => {
    const { root, field, button, fake } = await editor(null);
    field('name').value = 'Shop';
    field('accentColor').value = 'red';
    button('Create site').click();
    await waitUntil(() => root.activeElement === field('accentColor'), 'focus on the colour');
    expect(root.querySelector('#accentColor-note')!.textContent).to.contain('e.g. #1a5fd0');
    expect(fake.callsOf('createSite')).to.have.length(0);
  });

  it('saves only what changed, shows the snippet with a copy button, and a new secret once', async () => {
    const { root, field, button, fake } = await editor('site-1');
    await waitUntil(() => root.querySelector('#snippet'));
    expect(root.querySelector('#snippet')!.textContent).to.contain('data-site="shop"');
    expect(button('Copy snippet')).to.exist;
    field('assistantName').value = 'Ridge';
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 1);
    expect(fake.callsOf('updateSite')[0]).to.deep.equal(['site-1', { assistantName: 'Ridge' }]);
    button('Generate identity secret').click();
    await waitUntil(() => root.querySelector('.secret'));
    expect(root.querySelector('.secret pre')!.textContent).to.equal('sec_once');
  });

  it('edits the handoff, the check-in delay and the daily budget of unsolicited messages', async () => {
    const { root, button, fake } = await editor('site-1');
    await waitUntil(() => root.querySelector('#snippet'));
    const byLabel = <T extends HTMLElement>(text: string) =>
      [...root.querySelectorAll('label')].find((l) => l.textContent!.trim() === text)!.control as T;
    const handoff = byLabel<HTMLInputElement>('Let the assistant hand conversations to a person');
    const checkIn = byLabel<HTMLInputElement>('Check in after minutes of silence');
    const perDay = byLabel<HTMLInputElement>('Unsolicited messages per visitor per day');
    expect([handoff.checked, checkIn.value, perDay.value]).to.deep.equal([false, '', '2']);
    handoff.click();
    checkIn.value = '0';
    perDay.value = '3';
    button('Save changes').click();
    await waitUntil(() => root.querySelector('#checkInAfterMinutes-note.field-error'));
    expect(fake.callsOf('updateSite')).to.have.length(0);
    checkIn.value = '30';
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 1);
    expect(fake.callsOf('updateSite')[0]).to.deep.equal([
      'site-1',
      { handoffEnabled: true, checkInAfterMinutes: 30, unsolicitedPerDay: 3 },
    ]);
  });

  it('edits what visitors may attach, grouped, and the largest file and message in MB', async () => {
    const stored = { ...fakeConsoleApi().site, attachmentKinds: ['png', 'jpeg', 'pdf'], attachmentMaxBytes: 5 * MB };
    const { root, button, fake } = await editor('site-1', fakeConsoleApi({ site: async () => stored }));
    await waitUntil(() => root.querySelector('#snippet'));
    const group = (legend: string) =>
      [...root.querySelectorAll('fieldset')].find((f) => f.querySelector('legend')!.textContent === legend)!;
    const ticked = (legend: string) =>
      [...group(legend).querySelectorAll<HTMLInputElement>('input[type=checkbox]')].map(
        (c) => `${c.labels![0]!.textContent!.trim()}${c.checked ? ' ✓' : ''}`,
      );
    expect(group('Attachments').contains(group('Images'))).to.be.true;
    expect(ticked('Images')).to.deep.equal(['PNG ✓', 'JPEG ✓', 'WebP', 'GIF']);
    expect(ticked('Documents')).to.deep.equal(['PDF ✓', 'Plain text']);
    const file = root.querySelector<HTMLInputElement>('#attachmentMaxBytes')!;
    const message = root.querySelector<HTMLInputElement>('#attachmentMessageMaxBytes')!;
    expect([file.labels![0]!.textContent, file.value, message.value]).to.deep.equal(['Largest file', '5', '20']);
    expect(file.getAttribute('aria-describedby')).to.equal('attachmentMaxBytes-unit attachmentMaxBytes-note');
    expect(root.querySelector('#attachmentMaxBytes-unit')!.textContent).to.equal('MB');
    group('Images').querySelector<HTMLInputElement>('[value=gif]')!.click();
    group('Documents').querySelector<HTMLInputElement>('[value=pdf]')!.click();
    file.value = '2.5';
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 1);
    expect(fake.callsOf('updateSite')[0]).to.deep.equal([
      'site-1',
      { attachmentKinds: ['png', 'jpeg', 'gif'], attachmentMaxBytes: 2.5 * MB },
    ]);
  });

  it('turns attachments off when no kind is ticked', async () => {
    const { root, button, fake } = await editor('site-1');
    await waitUntil(() => root.querySelector('#snippet'));
    for (const box of root.querySelectorAll<HTMLInputElement>('input[name=attachmentKinds]')) box.click();
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 1);
    expect(fake.callsOf('updateSite')[0]).to.deep.equal(['site-1', { attachmentKinds: [] }]);
  });

  it('says what is wrong with an attachment size at its field, focusing the first, before asking the server', async () => {
    const { el, root, field, button, fake } = await editor('site-1');
    await waitUntil(() => root.querySelector('#snippet'));
    field('attachmentMaxBytes').value = '0';
    field('attachmentMessageMaxBytes').value = 'lots';
    button('Save changes').click();
    await waitUntil(() => root.activeElement === field('attachmentMaxBytes'), 'focus on the largest file');
    expect(root.querySelector('#attachmentMaxBytes-note')!.textContent).to.equal('A size in MB from 0.01 to 100, e.g. 10.');
    expect(root.querySelector('#attachmentMessageMaxBytes-note')!.textContent).to.equal('A size in MB from 0.01 to 250, e.g. 20.');
    expect(root.querySelector('[role="alert"]')!.textContent).to.equal('2 fields above need a change.');
    await expect(el).shadowDom.to.be.accessible();
    field('attachmentMaxBytes').value = '30';
    field('attachmentMessageMaxBytes').value = '20';
    button('Save changes').click();
    await waitUntil(() => root.activeElement === field('attachmentMessageMaxBytes'), 'focus on the largest message');
    expect(root.querySelector('#attachmentMessageMaxBytes-note')!.textContent).to.equal(
      'At least the largest file (30 MB): a message must be able to carry one file.',
    );
    expect(fake.callsOf('updateSite')).to.have.length(0);
  });

  it('shows the server’s refusal of a file size over its own ceiling beside the field', async () => {
    const over = refusal('BAD_REQUEST', null, 'invalid', { fieldErrors: { attachmentMaxBytes: ['at most 25 MB on this server'] } });
    const { root, field, button } = await editor('site-1', fakeConsoleApi({ updateSite: async () => Promise.reject(over) }));
    await waitUntil(() => root.querySelector('#snippet'));
    field('attachmentMaxBytes').value = '20';
    field('attachmentMessageMaxBytes').value = '40';
    button('Save changes').click();
    await waitUntil(() => root.activeElement === field('attachmentMaxBytes'), 'focus on the field');
    expect(root.querySelector('#attachmentMaxBytes-note')!.textContent).to.equal('at most 25 MB on this server');
  });

  it('keeps conversations for a number of days, empty for ever, refusing what is not 1 to 3650 whole days at the field', async () => {
    const stored = { ...fakeConsoleApi().site, retentionDays: 90 };
    const { root, field, button, fake } = await editor('site-1', fakeConsoleApi({ site: async () => stored }));
    await waitUntil(() => root.querySelector('#snippet'));
    const days = field('retentionDays');
    expect([days.labels![0]!.textContent, days.value]).to.deep.equal(['Keep conversations for (days)', '90']);
    expect(root.querySelector('#retentionDays-note')!.textContent).to.equal(
      'Empty keeps conversations. Otherwise a conversation is deleted, with its files, this many days after its last message.',
    );
    days.value = '0';
    button('Save changes').click();
    await waitUntil(() => root.activeElement === days, 'focus on the days');
    expect(root.querySelector('#retentionDays-note')!.textContent).to.equal(
      'A whole number of days from 1 to 3650, or empty to keep conversations.',
    );
    // what the browser cannot read as a number (letters, where it lets them in; a lone "e" here)
    // reaches the form as empty: it is refused, not taken for "keep for ever"
    days.value = '';
    days.focus();
    await sendKeys({ type: 'e' });
    expect(days.validity.badInput).to.be.true;
    button('Save changes').click();
    await waitUntil(() => root.activeElement === days, 'focus on the days again');
    expect(fake.callsOf('updateSite')).to.have.length(0);
    days.value = '';
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 1);
    expect(fake.callsOf('updateSite')[0]).to.deep.equal(['site-1', { retentionDays: null }]);
    days.value = '30';
    button('Save changes').click();
    await waitUntil(() => fake.callsOf('updateSite').length === 2);
    expect(fake.callsOf('updateSite')[1]).to.deep.equal(['site-1', { retentionDays: 30 }]);
  });

  it('says when the retention sweep last ran and what it removed, or that it has not run', async () => {
    const { root } = await editor('site-1');
    await waitUntil(() => root.querySelector('#retention-sweep'));
    expect(root.querySelector('#retention-sweep')!.textContent).to.equal('The sweep has not run for this site yet.');
    const swept = { ...fakeConsoleApi().site, retentionDays: 30, retentionSweptAt: '2026-01-02T03:04:00.000Z', retentionSweptCount: 4 };
    const { el, root: after } = await editor('site-1', fakeConsoleApi({ site: async () => swept }));
    await waitUntil(() => after.querySelector('#retention-sweep time'));
    const line = after.querySelector('#retention-sweep')!;
    expect(line.textContent!.replace(/\s+/g, ' ').trim()).to.match(/^Last sweep: .+, removed 4 conversations$/);
    expect(line.querySelector('time')!.getAttribute('datetime')).to.equal('2026-01-02T03:04:00.000Z');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('holds the site’s intents, API keys and unsolicited message counts', async () => {
    const { root, fake } = await editor('site-1');
    await waitUntil(() => root.querySelector('heed-intent-rules'));
    expect(root.querySelector('heed-api-keys')).to.exist;
    expect(root.querySelector('heed-proactive-stats')).to.exist;
    await waitUntil(
      () => fake.callsOf('intentRules').length === 1 && fake.callsOf('apiKeys').length === 1 && fake.callsOf('proactiveStats').length === 1,
    );
    expect(fake.callsOf('intentRules')[0]).to.deep.equal(['site-1']);
  });

  it('is read-only for an agent', async () => {
    const { root } = await editor('site-1', fakeConsoleApi(), { ...owner, role: 'agent' });
    await waitUntil(() => root.querySelector('#snippet'));
    expect([...root.querySelectorAll('fieldset')].every((f) => f.disabled)).to.be.true;
    expect(root.querySelector('heed-site-delete')).to.equal(null);
  });

  it('is accessible', async () => {
    const { el, root } = await editor('site-1');
    await waitUntil(() => root.querySelector('#snippet'));
    await expect(el).shadowDom.to.be.accessible();
  });
});
