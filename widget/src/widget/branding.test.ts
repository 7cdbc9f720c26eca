/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './widget.ts';
import '../panel/panel.ts';
import type { HeedWidget } from './widget.component.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { FakeApi, settle } from '../test-support/fake-api.ts';
import { followBranding, readableOn } from './branding.ts';
import type { SiteBranding } from '../state/types.ts';

const KEY = 'heed:brand:test@http://api.test/';

async function mount(site: Partial<SiteBranding>, opts: { positionFixed?: boolean } = {}) {
  const store = new HeedStore({ api: new FakeApi({ site }), siteKey: 'test' });
  const widget = await fixture<HeedWidget>(html`<heed-widget></heed-widget>`);
  widget.store = store;
  followBranding(store, widget, { key: KEY, positionFixed: opts.positionFixed ?? false });
  await store.start();
  await settle();
  await widget.updateComplete;
  const launcher = () => widget.shadowRoot!.querySelector('heed-launcher')!.shadowRoot!.querySelector('button')!;
  return { store, widget, launcher };
}

describe('branding from the site', () => {
  afterEach(() => localStorage.removeItem(KEY));

  it('picks dark icons on a pale accent and white on a dark one', () => {
    expect(readableOn('#ffd400')).to.equal('#1f2328');
    expect(readableOn('#1a237e')).to.equal('#fff');
    expect(readableOn('#ffffff')).to.equal('#1f2328');
  });

  it("dresses the launcher in the site's accent and moves it to the site's side", async () => {
    const { widget, launcher } = await mount({ accentColor: '#1a237e', launcherPosition: 'bottom-left' });
    expect(getComputedStyle(launcher()).backgroundColor).to.equal('rgb(26, 35, 126)');
    expect(getComputedStyle(launcher()).color).to.equal('rgb(255, 255, 255)');
    expect(widget.position).to.equal('bottom-left');
  });

  it('keeps an explicit data-position and a host-set --heed-accent', async () => {
    const { widget, launcher } = await mount({ accentColor: '#1a237e', launcherPosition: 'bottom-left' }, { positionFixed: true });
    widget.style.setProperty('--heed-accent', 'rgb(1, 2, 3)');
    expect(getComputedStyle(launcher()).backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(widget.position).to.equal('bottom-right');
  });

  it('remembers the look so the next page load starts in the right colour before the session answers', async () => {
    await mount({ accentColor: '#1a237e', launcherPosition: 'bottom-left' });
    const store = new HeedStore({ api: new FakeApi(), siteKey: 'test' });
    const widget = await fixture<HeedWidget>(html`<heed-widget></heed-widget>`);
    followBranding(store, widget, { key: KEY, positionFixed: false });
    expect(widget.style.getPropertyValue('--_site-accent')).to.equal('#1a237e');
    expect(widget.position).to.equal('bottom-left');
  });

  it("names the assistant in the heading and opens with the site's greeting, as plain text", async () => {
    const { widget } = await mount({ assistantName: 'Mia', greeting: 'Hello <b>there</b>' });
    await widget.show();
    await settle();
    const panel = widget.shadowRoot!.querySelector<HeedPanel>('heed-panel')!;
    await panel.updateComplete;
    const heading = panel.shadowRoot!.querySelector('heed-heading')!;
    expect(heading.shadowRoot!.textContent).to.contain('Mia');
    const list = panel.shadowRoot!.querySelector('heed-message-list')!;
    await (list as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    const greeting = list.shadowRoot!.querySelector('.greeting')!;
    expect(greeting.textContent).to.contain('Hello <b>there</b>');
    expect(greeting.querySelector('b')).to.equal(null);
  });
});
