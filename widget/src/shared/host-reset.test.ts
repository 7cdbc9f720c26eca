/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, css, html as template } from 'lit';
import { hostReset, pageHostReset } from './host-reset.ts';

/** An element a page would hold, and one inside its shadow root, as heed-widget and heed-panel are. */
class PageProbe extends LitElement {
  static override styles = [...pageHostReset, css`:host { display: block; }`];
  override render() {
    return template`<inner-probe></inner-probe>`;
  }
}
class InnerProbe extends LitElement {
  static override styles = [hostReset, css`:host { display: block; }`];
  override render() {
    return template`<p>text</p>`;
  }
}
customElements.define('page-probe', PageProbe);
customElements.define('inner-probe', InnerProbe);

const HOSTILE =
  'font: italic 700 30px/3 serif; letter-spacing: 4px; word-spacing: 9px; text-transform: uppercase; text-align: center; ' +
  'text-indent: 40px; white-space: pre; color: red; cursor: wait; direction: rtl; visibility: visible; color-scheme: dark';

async function probe(dir = '') {
  const page = await fixture<HTMLElement>(html`<div style=${HOSTILE}><page-probe></page-probe></div>`);
  const outer = page.querySelector<PageProbe>('page-probe')!;
  if (dir) outer.setAttribute('dir', dir);
  await outer.updateComplete;
  const inner = outer.shadowRoot!.querySelector<InnerProbe>('inner-probe')!;
  await inner.updateComplete;
  const text = getComputedStyle(inner.shadowRoot!.querySelector('p')!);
  return { page, outer, inner, text };
}

describe('hostReset', () => {
  it('lets nothing the page sets on its elements reach the text inside', async () => {
    const { text } = await probe();
    expect({
      fontStyle: text.fontStyle,
      fontWeight: text.fontWeight,
      fontSize: text.fontSize,
      lineHeight: text.lineHeight,
      letterSpacing: text.letterSpacing,
      wordSpacing: text.wordSpacing,
      textTransform: text.textTransform,
      textAlign: text.textAlign,
      textIndent: text.textIndent,
      whiteSpace: text.whiteSpace,
      color: text.color,
      cursor: text.cursor,
      direction: text.direction,
      colorScheme: text.colorScheme,
    }).to.deep.equal({
      fontStyle: 'normal',
      fontWeight: '400',
      fontSize: '15px',
      lineHeight: 'normal',
      letterSpacing: 'normal',
      wordSpacing: '0px',
      textTransform: 'none',
      textAlign: 'start',
      textIndent: '0px',
      whiteSpace: 'normal',
      color: 'rgb(31, 35, 40)',
      cursor: 'auto',
      direction: 'ltr',
      colorScheme: 'normal',
    });
    expect(text.fontFamily).to.equal('system-ui, sans-serif');
  });

  it('takes the base font and colour from the --heed- custom properties, which still inherit', async () => {
    const { page, text } = await probe();
    page.style.setProperty('--heed-font-size', '18px');
    page.style.setProperty('--heed-font-family', 'Georgia, serif');
    page.style.setProperty('--heed-text-color', '#c00');
    expect([text.fontSize, text.fontFamily, text.color]).to.deep.equal(['18px', 'Georgia, serif', 'rgb(204, 0, 0)']);
  });

  it('flips the direction with dir="rtl" on the outer element; the inner one inherits it', async () => {
    const { text } = await probe('rtl');
    expect(text.direction).to.equal('rtl');
  });

  it('still hides a hidden element, although it resets display', async () => {
    const { outer } = await probe();
    outer.hidden = true;
    expect(getComputedStyle(outer).display).to.equal('none');
  });
});
