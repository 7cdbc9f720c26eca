/// <reference types="mocha" />
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './sign-in.ts';
import type { HeedSignIn } from './sign-in.component.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

async function signIn(api = fakeConsoleApi().api) {
  const el = await fixture<HeedSignIn>(html`<heed-sign-in .api=${api}></heed-sign-in>`);
  const $ = <T extends Element>(sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
  const type = (email: string, password: string) => {
    $<HTMLInputElement>('input[name=email]').value = email;
    $<HTMLInputElement>('input[name=password]').value = password;
  };
  return { el, $, type, submit: () => $<HTMLButtonElement>('button[type=submit]').click() };
}

describe('heed-sign-in', () => {
  it('signs in with the typed email and password and announces the operator', async () => {
    const fake = fakeConsoleApi();
    const { el, type, submit } = await signIn(fake.api);
    type(' owner@example.test ', 'correct horse battery');
    setTimeout(submit);
    const event = await oneEvent(el, 'heed-signed-in');
    expect(event.detail).to.deep.equal({ operator: owner });
    expect(fake.callsOf('signIn')).to.deep.equal([[{ email: 'owner@example.test', password: 'correct horse battery' }]]);
  });

  it('says why a sign-in was refused, and how long to wait when throttled', async () => {
    let refuse = refusal('UNAUTHORIZED', 'bad_credentials');
    const fake = fakeConsoleApi({ signIn: async () => Promise.reject(refuse) });
    const { el, $, type, submit } = await signIn(fake.api);
    type('owner@example.test', 'wrong');
    submit();
    await new Promise((r) => setTimeout(r, 10));
    await el.updateComplete;
    expect($('[role=alert]').textContent).to.contain('do not match');
    refuse = refusal('TOO_MANY_REQUESTS', 'sign_in_throttled', 'slow down', { retryAfterMs: 30_000 });
    submit();
    await new Promise((r) => setTimeout(r, 10));
    await el.updateComplete;
    expect($('[role=alert]').textContent).to.contain('Try again in 30 s');
    expect($<HTMLInputElement>('input[name=email]').value).to.equal('owner@example.test');
  });

  it('asks for both fields before calling the server', async () => {
    const fake = fakeConsoleApi();
    const { el, $, submit } = await signIn(fake.api);
    submit();
    await el.updateComplete;
    expect($('[role=alert]').textContent).to.contain('Enter your email and password');
    expect(fake.callsOf('signIn')).to.have.length(0);
  });

  it('is accessible, with the fields named Email and Password', async () => {
    const { el, $ } = await signIn();
    expect($('label:has(input[name=email])').textContent!.trim()).to.equal('Email');
    await expect(el).shadowDom.to.be.accessible();
  });
});
