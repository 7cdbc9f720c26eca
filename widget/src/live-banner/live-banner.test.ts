/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './live-banner.ts';
import type { HeedLiveBanner } from './live-banner.component.ts';

const text = (el: HeedLiveBanner) => el.shadowRoot!.querySelector('[part="banner"]')?.textContent ?? null;

describe('heed-live-banner', () => {
  it('says how many chats receive replies, and renders nothing at zero', async () => {
    const el = await fixture<HeedLiveBanner>(html`<heed-live-banner .count=${1}></heed-live-banner>`);
    expect(text(el)).to.equal('1 live chat receiving replies');
    el.count = 3;
    await el.updateComplete;
    expect(text(el)).to.equal('3 live chats receiving replies');
    el.count = 0;
    await el.updateComplete;
    expect(text(el)).to.be.null;
  });

  it('never says that refreshing interrupts a reply (in Heed it does not)', async () => {
    const el = await fixture<HeedLiveBanner>(html`<heed-live-banner .count=${2}></heed-live-banner>`);
    expect(text(el)).to.not.match(/refresh|reload|interrupt|leave|close/i);
  });
});
