/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './message-list.ts';
import type { HeedMessageList } from './message-list.component.ts';
import { message } from '../test-support/fake-api.ts';
import type { ThreadMessage } from '../state/types.ts';
import { useLocale } from '../i18n/i18n.ts';

const conversationId = 'c1';

async function list(messages: ThreadMessage[], siteName: string | null = 'Acme') {
  return fixture<HeedMessageList>(html`<heed-message-list .messages=${messages} .siteName=${siteName}></heed-message-list>`);
}

/** A bubble's accessible name, from the element its `aria-labelledby` names. */
const nameOf = (el: HeedMessageList, bubble: Element) =>
  el.shadowRoot!.getElementById(bubble.getAttribute('aria-labelledby') ?? '')?.textContent ?? null;

describe('heed-message-list provenance', () => {
  afterEach(() => useLocale({ bundle: 'en', tag: 'en', dir: 'ltr' }));

  it('shows an operator’s message on the reply side, labelled "Operator — Ana", named by its label', async () => {
    const el = await list([
      message({ conversationId, role: 'user', content: 'Can a person help?' }),
      message({
        conversationId,
        role: 'operator',
        provenance: 'operator',
        provenanceLabel: 'Ana',
        content: 'Hi, I am **Ana** from support.',
      }),
    ]);
    const bubble = el.shadowRoot!.querySelector('.operator')!;
    expect(bubble.getAttribute('part')).to.equal('message operator-message');
    expect(bubble.querySelector('.provenance')!.textContent).to.equal('Operator — Ana');
    expect(bubble.getAttribute('role')).to.equal('article');
    expect(nameOf(el, bubble)).to.equal('Operator — Ana');
    await waitUntil(() => bubble.querySelector('.md strong'));
    expect(bubble.querySelector('.md strong')!.textContent).to.equal('Ana');
    // on the reply side, like the assistant's bubbles
    const user = el.shadowRoot!.querySelector('.user')!.getBoundingClientRect();
    const operator = bubble.getBoundingClientRect();
    expect(operator.left).to.be.below(user.left);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('renders an operator’s text through the reply sanitizer: an XSS payload stays inert', async () => {
    const el = await list([
      message({
        conversationId,
        role: 'operator',
        provenance: 'operator',
        provenanceLabel: 'Ana',
        content: '<img src="data:," onerror="window.__xss = 1">\n\n[click](javascript:window.__xss=2)\n\n<script>window.__xss = 3</script>',
      }),
    ]);
    const md = el.shadowRoot!.querySelector('.operator .md')!;
    // the sanitized Markdown is in place once its paragraphs are (plain text stands in until then)
    await waitUntil(() => md.querySelector('p'), 'the sanitized reply rendered');
    for (const node of md.querySelectorAll('*')) {
      for (const attr of node.getAttributeNames()) expect(attr.startsWith('on'), `${node.localName}[${attr}]`).to.be.false;
      expect(node.localName).to.not.be.oneOf(['script', 'img']);
    }
    for (const a of md.querySelectorAll('a')) a.click();
    expect((window as { __xss?: unknown }).__xss).to.be.undefined;
  });

  it('labels unsolicited replies: "Because you …", "Check-in", "From <site>", as text and as the bubble’s name', async () => {
    const el = await list([
      message({ conversationId, runId: 'r1', provenance: 'intent', provenanceLabel: 'viewed Pricing', content: 'Questions about plans?' }),
      message({ conversationId, runId: 'r2', provenance: 'check_in', content: 'Did the size guide help?' }),
      message({ conversationId, provenance: 'server', provenanceLabel: 'Acme Store', content: 'Your order shipped.' }),
      message({ conversationId, provenance: 'server', content: 'A label without a name falls back to the site.' }),
      message({ conversationId, content: 'A plain reply has no label.' }),
    ]);
    const bubbles = [...el.shadowRoot!.querySelectorAll('.assistant')];
    const labels = bubbles.map((b) => b.querySelector('.provenance')?.textContent ?? null);
    expect(labels).to.deep.equal(['Because you viewed Pricing', 'Check-in', 'From Acme Store', 'From Acme', null]);
    expect(bubbles.map((b) => nameOf(el, b))).to.deep.equal(labels);
    expect(bubbles[4]!.hasAttribute('role')).to.be.false;
    await expect(el).shadowDom.to.be.accessible();
  });

  it('shows notices as centred lines, not bubbles, with the words for each', async () => {
    const el = await list([
      message({ conversationId, role: 'user', content: 'I need a person' }),
      message({ conversationId, role: 'notice', provenance: 'handoff_requested', provenanceLabel: 'Acme Store', content: '' }),
      message({ conversationId, role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana', content: '' }),
      message({ conversationId, role: 'notice', provenance: 'operator_left', provenanceLabel: 'Ana', content: '' }),
      message({ conversationId, role: 'notice', provenance: 'handed_back', provenanceLabel: 'Olga', content: '' }),
      message({ conversationId, role: 'notice', provenance: 'handoff_requested', content: '' }),
    ]);
    const lines = [...el.shadowRoot!.querySelectorAll('.notice')];
    expect(lines.map((l) => l.textContent)).to.deep.equal([
      'A person from Acme Store will reply here — you can leave this page.',
      'Ana joined',
      'Ana left — the assistant is back',
      'Olga handed the conversation back to the assistant',
      'A person from Acme will reply here — you can leave this page.',
    ]);
    expect(el.shadowRoot!.querySelectorAll('.message')).to.have.length(1);
    const line = lines[1]!.getBoundingClientRect();
    const box = el.shadowRoot!.querySelector('.list')!.getBoundingClientRect();
    expect(Math.abs(line.left - box.left - (box.right - line.right)), 'centred').to.be.below(2);
    expect(getComputedStyle(lines[1]!).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('leaves out a notice whose provenance it does not know (a newer server’s)', async () => {
    const el = await list([
      message({ conversationId, role: 'notice', provenance: null, content: '' }),
      message({ conversationId, content: 'Hello' }),
    ]);
    expect(el.shadowRoot!.querySelectorAll('.notice')).to.have.length(0);
    expect(el.shadowRoot!.querySelectorAll('.message')).to.have.length(1);
  });

  it('says the labels and notices in the widget’s language', async () => {
    const el = await list([
      message({ conversationId, role: 'operator', provenance: 'operator', provenanceLabel: 'Ana', content: 'Hallo' }),
      message({ conversationId, role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana', content: '' }),
      message({ conversationId, provenance: 'check_in', content: 'Noch Fragen?' }),
    ]);
    await useLocale({ bundle: 'de', tag: 'de', dir: 'ltr' });
    await el.updateComplete;
    const root = el.shadowRoot!;
    expect([...root.querySelectorAll('.provenance, .notice')].map((n) => n.textContent)).to.deep.equal([
      'Mitarbeiter — Ana',
      'Ana ist beigetreten',
      'Nachfrage',
    ]);
  });
});
