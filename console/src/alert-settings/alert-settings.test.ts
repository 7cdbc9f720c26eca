/// <reference types="mocha" />
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import './alert-settings.ts';
import type { HeedAlertSettings } from './alert-settings.component.ts';
import type { AlertSettings } from '../state/contract.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

async function settings(over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const fake = fakeConsoleApi(over);
  const announced: string[] = [];
  const el = await fixture<HeedAlertSettings>(html`<heed-alert-settings .api=${fake.api} .me=${owner}></heed-alert-settings>`);
  el.addEventListener('heed-announce', (e) => announced.push((e as CustomEvent<{ text: string }>).detail.text));
  const root = el.shadowRoot!;
  const box = (label: string) =>
    [...root.querySelectorAll('label')].find((l) => l.textContent!.trim() === label)!.querySelector<HTMLInputElement>('input')!;
  const note = (input: HTMLInputElement) => root.getElementById(input.getAttribute('aria-describedby')!)!.textContent!.trim();
  await waitUntil(() => root.querySelector('input[type=checkbox]'), 'the settings shown');
  return { el, root, fake, announced, box, note };
}

const stored: AlertSettings = { notify: true, sound: false, email: true, emailEnabled: true };

describe('heed-alert-settings', () => {
  it('shows the operator’s channels, each box labelled, and saves a change at once, announced and told to the app', async () => {
    const { el, fake, announced, box } = await settings({ alertSettings: async () => stored });
    expect([box('Browser notifications').checked, box('Sound').checked, box('Email').checked]).to.deep.equal([true, false, true]);
    const told = oneEvent(el, 'heed-alert-settings');
    box('Sound').click();
    expect((await told).detail).to.deep.equal({ ...stored, sound: true });
    expect(fake.callsOf('setAlertSettings')).to.deep.equal([[{ sound: true }]]);
    await waitUntil(() => announced.includes('Sound on.'), 'announced');
    expect(box('Sound').checked).to.equal(true);
    box('Email').click();
    await waitUntil(() => announced.includes('Email alerts off.'), 'email off announced');
    expect(fake.callsOf('setAlertSettings').at(-1)).to.deep.equal([{ email: false }]);
  });

  it('disables email, saying why, when the server sends none', async () => {
    const { box, note } = await settings({ alertSettings: async () => ({ ...stored, emailEnabled: false }) });
    expect(box('Email').disabled).to.equal(true);
    expect(note(box('Email'))).to.equal('Email is off on this server.');
    expect(box('Sound').disabled).to.equal(false);
  });

  it('puts a box back and says so when the change is refused', async () => {
    const { root, box } = await settings({
      alertSettings: async () => stored,
      setAlertSettings: async () => Promise.reject(refusal('INTERNAL_SERVER_ERROR', null, 'Something went wrong on our side.')),
    });
    box('Browser notifications').click();
    await waitUntil(() => root.querySelector('[role=alert]'), 'the error shown');
    expect(box('Browser notifications').checked).to.equal(true);
  });

  it('asks the browser for notifications only from the button, and shows what it answered', async () => {
    // this test browser has not been asked (the state is "default") and refuses when asked
    expect(Notification.permission).to.equal('default');
    const { root, announced, box, note } = await settings();
    expect(note(box('Browser notifications'))).to.equal('This browser has not been allowed to show them yet.');
    const button = [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Turn on browser notifications')!;
    button.click();
    // the browser takes its time to answer
    await waitUntil(() => announced.includes('The browser blocked notifications.'), 'the refusal announced', { timeout: 10_000 });
    expect(note(box('Browser notifications'))).to.match(/^Blocked by the browser\./);
    expect([...root.querySelectorAll('button')].some((b) => b.textContent!.includes('Turn on'))).to.equal(false);
  });

  it('has no serious accessibility violations', async () => {
    const { el } = await settings({ alertSettings: async () => ({ ...stored, emailEnabled: false }) });
    await expect(el).shadowDom.to.be.accessible();
  });
});
