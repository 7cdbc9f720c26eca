/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './message-list.ts';
import type { HeedMessageList } from './message-list.component.ts';
import { renderMarkdown } from './markdown.ts';
import { message } from '../test-support/fake-api.ts';
import type { ThreadMessage } from '../state/types.ts';

const conversationId = 'c1';
const XSS = [
  '<img src="data:," onerror="window.__xss = 1">',
  '<script>window.__xss = 2</script>',
  '[click](javascript:window.__xss=3)',
  '<a href="https://example.com" onclick="window.__xss=4">site</a>',
  '<iframe src="javascript:window.__xss=5"></iframe>',
].join('\n\n');

async function list(messages: ThreadMessage[], reply?: HeedMessageList['reply']) {
  const el = await fixture<HeedMessageList>(html`<heed-message-list .messages=${messages} .reply=${reply}></heed-message-list>`);
  return el;
}

function inert(root: ParentNode) {
  for (const node of root.querySelectorAll('*')) {
    for (const attr of node.getAttributeNames()) expect(attr.startsWith('on'), `${node.localName}[${attr}]`).to.be.false;
    expect(node.localName).to.not.be.oneOf(['script', 'iframe']);
  }
  for (const a of root.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').to.not.match(/^javascript:/i);
}

describe('heed-message-list', () => {
  afterEach(() => delete (window as { __xss?: unknown }).__xss);

  it('renders an XSS payload in a reply inert', async () => {
    const el = await list([message({ conversationId, content: XSS })]);
    const md = el.shadowRoot!.querySelector('.md')!;
    // the reply is rendered and every image it kept has loaded or failed: an onerror would have run by now
    await waitUntil(
      () => md.textContent!.includes('site') && [...md.querySelectorAll('img')].every((img) => img.complete),
      'reply rendered',
    );
    inert(md);
    for (const a of md.querySelectorAll('a')) a.click();
    expect((window as { __xss?: unknown }).__xss).to.be.undefined;
  });

  it('renders a visitor message as text, never as HTML', async () => {
    const el = await list([message({ conversationId, role: 'user', content: '<img src=x onerror="window.__xss=9"> **hi**' })]);
    const bubble = el.shadowRoot!.querySelector('.user')!;
    expect(bubble.querySelector('img')).to.be.null;
    expect(bubble.textContent).to.contain('<img src=x');
  });

  it('renders Markdown with links that open in a new tab without an opener or referrer', async () => {
    const el = await list([message({ conversationId, content: 'See **this** [guide](https://example.com/guide)' })]);
    const md = el.shadowRoot!.querySelector('.md')!;
    expect(md.querySelector('strong')!.textContent).to.equal('this');
    const a = md.querySelector('a')!;
    expect(a.getAttribute('target')).to.equal('_blank');
    expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
  });

  it('falls back to a lazily loaded sanitizer where Element.setHTML is missing', async () => {
    const proto = Element.prototype as { setHTML?: unknown };
    const saved = proto.setHTML;
    delete proto.setHTML;
    try {
      const el = document.createElement('div');
      const done = renderMarkdown(el, `${XSS}\n\n[ok](https://example.com)`);
      expect(el.textContent).to.contain('<img src="data:,"'); // plain text until the sanitizer arrives
      await done;
      inert(el);
      expect(el.querySelector('a[href="https://example.com"]')!.getAttribute('rel')).to.equal('noopener noreferrer');
    } finally {
      proto.setHTML = saved;
    }
  });

  it('marks an unacknowledged send as pending', async () => {
    const el = await list([{ ...message({ conversationId, role: 'user', content: 'Hi', seq: '' }), pending: true }]);
    const bubble = el.shadowRoot!.querySelector('.user')!;
    expect(bubble.getAttribute('data-pending')).to.equal('true');
    expect(bubble.textContent).to.contain('Sending…');
  });

  it('shows a streaming reply right after the messages it answers, above a message sent during it', async () => {
    const a = message({ conversationId, role: 'user', content: 'first', runId: 'r1', state: 'claimed' });
    const b = message({ conversationId, role: 'user', content: 'during the reply', state: 'pending' });
    const el = await list([a, b], { runId: 'r1', text: 'Answer so far', after: [a.id] });
    const texts = [...el.shadowRoot!.querySelectorAll('.message')].map((m) => m.textContent!.trim());
    // each message starts with who said it, for screen readers
    expect(texts).to.deep.equal(['You: first', 'Answer so far', 'You: during the reply']);
  });

  it('shows when a send the server asked to wait goes out, counting down', async () => {
    const waiting = { ...message({ conversationId, role: 'user', content: 'Hi', seq: '' }), pending: true, retryAt: Date.now() + 2_500 };
    const el = await list([waiting]);
    const mark = () => el.shadowRoot!.querySelector('.user .mark')!.textContent;
    expect(mark()).to.equal('Sending in 3 s');
    await waitUntil(() => mark() === 'Sending in 2 s', 'the countdown ticks', { timeout: 2500 });
  });

  it('shows the polite text of a reply refused at the spend cap', async () => {
    const text = 'The assistant is unavailable right now. Please try again later.';
    const el = await list([message({ conversationId, content: text, error: 'spend_cap' })]);
    await waitUntil(() => el.shadowRoot!.querySelector('.failed .md')!.textContent!.includes(text));
  });

  it('offers Retry on a failed reply', async () => {
    const el = await list([message({ conversationId, content: 'The reply failed.', error: 'model_unavailable' })]);
    const button = el.shadowRoot!.querySelector('button')!;
    let detail: unknown;
    el.addEventListener('heed-retry', (e) => (detail = (e as CustomEvent).detail));
    button.click();
    expect(detail).to.deep.equal({ conversationId });
  });

  it('replaces a failed reply by the answer a retry brought, leaving no Retry button', async () => {
    const el = await list([
      message({ conversationId, role: 'user', content: 'My order #1234 has not arrived', state: 'answered' }),
      message({ conversationId, content: 'The assistant could not be reached.', error: 'model_unavailable' }),
      message({ conversationId, content: 'Order #1234 left the depot today.' }),
    ]);
    const root = el.shadowRoot!;
    expect(root.textContent).to.contain('Order #1234 left the depot today.');
    expect(root.textContent).to.not.contain('could not be reached');
    expect(root.querySelector('.failed')).to.be.null;
    expect(root.querySelector('button')).to.be.null;
  });

  it('marks a reply cut short and offers Continue on the newest one only while nothing follows it', async () => {
    const question = message({ conversationId, role: 'user', content: 'List every store', state: 'answered' });
    const cut = message({ conversationId, content: '1. Oslo 2. Bergen', cutShort: true });
    const el = await list([question, cut]);
    const root = el.shadowRoot!;
    expect(root.querySelector('[part="cut-short"]')!.textContent).to.contain('This reply was cut short.');
    let detail: unknown;
    el.addEventListener('heed-continue', (e) => (detail = (e as CustomEvent).detail));
    root.querySelector<HTMLButtonElement>('[part="cut-short"] button')!.click();
    expect(detail).to.deep.equal({ conversationId, messageId: cut.id });

    // the visitor asked for the rest: the request is drawn as nothing, the line and its button go
    el.messages = [question, cut, message({ conversationId, role: 'user', content: '', state: 'pending', provenance: 'continue' })];
    await el.updateComplete;
    expect(root.querySelector('[part="cut-short"]')).to.be.null;
    expect(root.querySelectorAll('.message.user')).to.have.length(1);

    // the visitor moved on instead: the reply stays marked, with nothing to press
    el.messages = [question, cut, message({ conversationId, role: 'user', content: 'Never mind', state: 'pending' })];
    await el.updateComplete;
    expect(root.querySelector('[part="cut-short"]')!.textContent).to.contain('cut short');
    expect(root.querySelector('[part="cut-short"] button')).to.be.null;
  });

  it('is a log named Messages in which every message says who said it', async () => {
    const el = await list([
      message({ conversationId, role: 'user', content: 'Do you ship to Norway?', state: 'answered' }),
      message({ conversationId, content: 'Yes, in two days.' }),
    ]);
    el.assistantName = 'Bootsy';
    await el.updateComplete;
    const log = el.shadowRoot!.querySelector('[role="log"]')!;
    expect(log.getAttribute('aria-label')).to.equal('Messages');
    const texts = [...log.querySelectorAll('.message')].map((m) => m.textContent!.replace(/\s+/g, ' ').trim());
    expect(texts).to.deep.equal(['You: Do you ship to Norway?', 'Bootsy: Yes, in two days.']);
  });

  it('shows the typing row while a reply is coming, and the reply grows in that same row, silent until it is whole', async () => {
    const sent = message({ conversationId, role: 'user', content: 'Hi', state: 'pending' });
    const el = await list([sent]);
    expect(el.shadowRoot!.querySelector('[part~="typing"]')).to.be.null;
    el.replyComing = true;
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('[part~="streaming"]')!;
    expect(row.querySelectorAll('.typing span')).to.have.length(3);
    expect(row.getAttribute('aria-live')).to.equal('off');
    expect(row.textContent).to.contain('Replying');

    el.reply = { runId: 'r1', text: 'Hello the', after: [sent.id] };
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="streaming"]')).to.equal(row);
    expect(row.textContent).to.contain('Hello the');
  });

  it('lists the pages a reply cites as Sources, opening in a new tab; a non-http address is dropped, a file is named', async () => {
    const reply = message({
      conversationId,
      content: 'Delivery is free above 50 EUR [1].',
      sources: [
        { n: 1, title: 'Shipping', url: 'https://shop.example/shipping' },
        { n: 2, title: 'Evil', url: 'javascript:alert(1)' },
        { n: 3, title: 'warranty.pdf', url: null },
      ],
    });
    const el = await list([reply]);
    const sources = el.shadowRoot!.querySelector('[part="sources"]')!;
    expect(sources.getAttribute('aria-label')).to.equal('Sources');
    const links = [...sources.querySelectorAll('a')];
    expect(links.map((a) => [a.textContent!.replace(/\s+/g, ' ').trim(), a.href, a.target, a.rel])).to.deep.equal([
      ['[1] Shipping shop.example', 'https://shop.example/shipping', '_blank', 'noopener noreferrer'],
    ]);
    // the owner's file or snippet is named, with nothing to link to
    expect([...sources.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal([
      '[1] Shipping shop.example',
      '[3] warranty.pdf',
    ]);
  });

  it('updates streaming text in place as deltas arrive', async () => {
    const el = await list([], { runId: 'r1', text: 'Hel' });
    el.reply = { runId: 'r1', text: 'Hello **world**' };
    await el.updateComplete;
    await waitUntil(() => el.shadowRoot!.querySelector('strong'));
    expect(el.shadowRoot!.querySelector('.md')!.textContent!.trim()).to.equal('Hello world');
  });
});

describe('direction of each message', () => {
  it('lays out every message in its own script’s direction, whatever the widget’s: an English reply in an Arabic thread, Arabic in an English one', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div dir="rtl"></div>`);
    const el = await fixture<HeedMessageList>(
      html`<heed-message-list
        .messages=${[message({ conversationId, role: 'user', content: 'مرحبا، متى يصل الطلب؟' }), message({ conversationId, content: 'Your parcel arrives on Tuesday.' })]}
      ></heed-message-list>`,
      { parentNode: wrapper },
    );
    const [arabic, english] = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.message')];
    expect(getComputedStyle(arabic!).direction).to.equal('rtl');
    expect(getComputedStyle(english!).direction).to.equal('ltr');
    const ltrList = await list([message({ conversationId, role: 'user', content: 'שלום, מתי החבילה מגיעה?' })]);
    expect(getComputedStyle(ltrList.shadowRoot!.querySelector<HTMLElement>('.message')!).direction).to.equal('rtl');
  });
});
