/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './intent-rules.ts';
import type { HeedIntentRules } from './intent-rules.component.ts';
import type { IntentRuleView } from '../state/contract.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

const pricing: IntentRuleView = {
  id: 'rule-1',
  name: 'viewed_pricing',
  label: 'viewed Pricing',
  instruction: 'Offer to compare the plans.',
  fixedMessage: null,
  enabled: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

async function rules(list: IntentRuleView[], over: Parameters<typeof fakeConsoleApi>[0] = {}, me = owner) {
  const fake = fakeConsoleApi({ intentRules: async () => list, ...over });
  const el = await fixture<HeedIntentRules>(html`<heed-intent-rules .api=${fake.api} .me=${me} siteId="site-1"></heed-intent-rules>`);
  const root = el.shadowRoot!;
  await waitUntil(() => fake.callsOf('intentRules').length > 0 && !root.textContent!.includes('Loading'), 'rules shown');
  const button = (name: string) =>
    [...root.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent!.trim()) === name)!;
  const byLabel = <T extends HTMLElement>(text: string) =>
    [...root.querySelectorAll('label')].find((l) => l.textContent!.trim() === text)!.control as T;
  return { el, root, fake, button, byLabel };
}

describe('heed-intent-rules', () => {
  it('lists rules with their label and what they say', async () => {
    const { root } = await rules([
      pricing,
      {
        ...pricing,
        id: 'rule-2',
        name: 'cart_abandoned',
        label: 'left your cart',
        instruction: null,
        fixedMessage: 'Your cart is saved.',
        enabled: false,
      },
    ]);
    const rows = [...root.querySelectorAll('tbody tr')].map((tr) => tr.textContent!.replace(/\s+/g, ' ').trim());
    expect(rows[0])
      .to.contain('viewed_pricing')
      .and.contain('Because you viewed Pricing')
      .and.contain('Instruction for the assistant: Offer to compare the plans.');
    expect(rows[1]).to.contain('Fixed message: Your cart is saved.');
    expect(root.querySelector<HTMLInputElement>('input[aria-label="cart_abandoned enabled"]')!.checked).to.be.false;
  });

  it('adds a rule with a fixed message', async () => {
    const { el, root, fake, button, byLabel } = await rules([]);
    button('Add intent').click();
    await el.updateComplete;
    expect(root.activeElement!.id).to.equal('intent-name');
    byLabel<HTMLInputElement>('Name').value = 'cart_abandoned';
    byLabel<HTMLInputElement>('Because you …').value = 'left your cart';
    byLabel<HTMLInputElement>('Fixed message').click();
    await el.updateComplete;
    byLabel<HTMLTextAreaElement>('Message').value = 'Your cart is saved for a week.';
    button('Save intent').click();
    await waitUntil(() => fake.callsOf('saveIntentRule').length === 1);
    expect(fake.callsOf('saveIntentRule')[0]![0]).to.deep.equal({
      siteId: 'site-1',
      name: 'cart_abandoned',
      label: 'left your cart',
      instruction: null,
      fixedMessage: 'Your cart is saved for a week.',
      enabled: true,
    });
    await waitUntil(() => !root.querySelector('form'));
  });

  it('edits a rule by id, and turns one off from the list', async () => {
    const { el, fake, button, byLabel, root } = await rules([pricing]);
    button('Edit viewed_pricing').click();
    await el.updateComplete;
    expect(byLabel<HTMLTextAreaElement>('Instruction').value).to.equal('Offer to compare the plans.');
    byLabel<HTMLInputElement>('Because you …').value = 'looked at Pricing';
    button('Save intent').click();
    await waitUntil(() => fake.callsOf('saveIntentRule').length === 1);
    expect(fake.callsOf('saveIntentRule')[0]![0]).to.deep.include({
      id: 'rule-1',
      label: 'looked at Pricing',
      instruction: 'Offer to compare the plans.',
      fixedMessage: null,
    });
    await waitUntil(() => !root.querySelector('form'));
    root.querySelector<HTMLInputElement>('input[aria-label="viewed_pricing enabled"]')!.click();
    await waitUntil(() => fake.callsOf('saveIntentRule').length === 2);
    expect(fake.callsOf('saveIntentRule')[1]![0]).to.deep.include({ id: 'rule-1', enabled: false });
  });

  it('checks fields before saving and shows the server’s refusal beside them', async () => {
    const taken = refusal('CONFLICT', 'intent_name_taken', 'This site already has an intent named "viewed_pricing".');
    const { el, root, fake, button, byLabel } = await rules([], { saveIntentRule: async () => Promise.reject(taken) });
    button('Add intent').click();
    await el.updateComplete;
    byLabel<HTMLInputElement>('Name').value = 'has spaces';
    button('Save intent').click();
    await el.updateComplete;
    expect(root.querySelector('#name-note')!.textContent).to.contain('Letters, digits');
    expect(root.querySelector('#text-note')!.textContent).to.equal('Write the instruction.');
    expect(fake.callsOf('saveIntentRule')).to.have.length(0);
    byLabel<HTMLInputElement>('Name').value = 'viewed_pricing';
    byLabel<HTMLInputElement>('Because you …').value = 'viewed Pricing';
    byLabel<HTMLTextAreaElement>('Instruction').value = 'Offer help.';
    button('Save intent').click();
    await waitUntil(() => root.querySelector('[role=alert]')?.textContent?.includes('already has an intent'));
  });

  it('deletes only after the confirmation', async () => {
    const { root, fake, button } = await rules([pricing]);
    const dialog = root.querySelector('heed-confirm-dialog')!.shadowRoot!;
    button('Delete viewed_pricing').click();
    await waitUntil(() => dialog.querySelector('dialog')!.open);
    dialog.querySelector<HTMLButtonElement>('button[value=no]')!.click();
    await waitUntil(() => !dialog.querySelector('dialog')!.open);
    expect(fake.callsOf('removeIntentRule')).to.have.length(0);
    button('Delete viewed_pricing').click();
    await waitUntil(() => dialog.querySelector('dialog')!.open);
    expect(dialog.querySelector('h2')!.textContent).to.equal('Delete viewed_pricing?');
    dialog.querySelector<HTMLButtonElement>('button.danger')!.click();
    await waitUntil(() => fake.callsOf('removeIntentRule').length === 1);
    expect(fake.callsOf('removeIntentRule')[0]).to.deep.equal(['site-1', 'rule-1']);
  });

  it('is read-only for an agent', async () => {
    const { root } = await rules([pricing], {}, { ...owner, role: 'agent' });
    expect(root.querySelector('button')).to.equal(null);
    expect(root.querySelector('tbody')!.textContent).to.contain('Yes');
  });

  it('is accessible, with the form open', async () => {
    const { el, button } = await rules([pricing]);
    button('Add intent').click();
    await el.updateComplete;
    await expect(el).shadowDom.to.be.accessible();
  });
});
