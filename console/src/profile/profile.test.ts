/// <reference types="mocha" />
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import './profile.ts';
import type { HeedConsoleProfile } from './profile.component.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

async function profile(over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const fake = fakeConsoleApi(over);
  const el = await fixture<HeedConsoleProfile>(html`<heed-console-profile .api=${fake.api} .me=${owner}></heed-console-profile>`);
  const root = el.shadowRoot!;
  const input = (id: string) => root.querySelector<HTMLInputElement>(`#${id}`)!;
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === text)!;
  return { el, root, fake, input, button };
}

describe('heed-console-profile', () => {
  it('saves the operator’s own name and tells the app', async () => {
    const { el, fake, input, button } = await profile();
    expect(input('profile-name').value).to.equal('Olive Owner');
    input('profile-name').value = 'Olive Berg';
    const renamed = oneEvent(el, 'heed-renamed');
    button('Save name').click();
    expect((await renamed).detail).to.deep.equal({ name: 'Olive Berg' });
    expect(fake.callsOf('renameSelf')).to.deep.equal([['Olive Berg']]);
  });

  it('puts a wrong current password beside its field, with focus there', async () => {
    const wrong = refusal('BAD_REQUEST', 'wrong_password', 'The current password is not right.');
    const { root, input, button } = await profile({ changePassword: async () => Promise.reject(wrong) });
    input('current-password').value = 'not it';
    input('new-password').value = 'a brand new password';
    button('Change password').click();
    await waitUntil(() => root.activeElement === input('current-password'), 'focus on the current password');
    expect(root.querySelector('#current-password-note')!.textContent).to.equal('The current password is not right.');
  });

  it('signs out everywhere and says so to the app', async () => {
    const { el, fake, button } = await profile();
    const out = oneEvent(el, 'heed-signed-out');
    button('Sign out everywhere').click();
    await out;
    expect(fake.callsOf('signOutEverywhere')).to.have.length(1);
  });
});
