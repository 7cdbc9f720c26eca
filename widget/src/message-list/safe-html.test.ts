/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { xssPayloads } from '../../../test/support/xss-payloads.ts';
import { renderMarkdown } from './markdown.ts';
import { setSafeHTML, wantHTML } from './safe-html.ts';
import { allowedElements, defaultPolicy, type SanitizePolicy } from './sanitize-policy.ts';

type Path = 'native' | 'purify';
type Input = 'markdown' | 'html';
type Trapped = { __xss?: (n: unknown) => void; alert: (msg?: unknown) => void };

const withImages: SanitizePolicy = { allowedImageHosts: ['images.example', 'ok.example'] };
/** what enforcePolicy adds on top of the allow-list */
const added: Record<string, string[]> = { a: ['target', 'rel'], img: ['referrerpolicy'] };
const fallback = '\u2063sanitizer failed\u2063';
const rendered: Element[] = [];

/** A container in an open shadow root, as a reply's `.md` sits in the widget. */
function container(): Element {
  const host = document.body.appendChild(document.createElement('div'));
  const el = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('div'));
  rendered.push(el);
  return el;
}

/** Renders `input` through one path: the platform's `setHTML`, or DOMPurify with `setHTML` removed. */
async function render(input: string, kind: Input, path: Path, policy = defaultPolicy): Promise<Element> {
  const el = container();
  const proto = Element.prototype as { setHTML?: unknown };
  const setHTML = proto.setHTML;
  if (path === 'purify') delete proto.setHTML;
  try {
    if (kind === 'markdown') {
      await renderMarkdown(el, input, policy);
    } else {
      wantHTML(el, input);
      await setSafeHTML(el, input, fallback, policy);
    }
  } finally {
    proto.setHTML = setHTML;
  }
  expect(el.textContent).to.not.equal(fallback);
  return el;
}

/** Both paths, which must agree to the byte; returns the native result. */
async function renderBoth(input: string, kind: Input, policy = defaultPolicy): Promise<Element> {
  const native = await render(input, kind, 'native', policy);
  const purify = await render(input, kind, 'purify', policy);
  expect(purify.innerHTML, 'DOMPurify path').to.equal(native.innerHTML);
  return native;
}

/** Only allow-listed elements and attributes, no handler, style, comment, unsafe URL or foreign image. */
function expectInert(el: Element, policy: SanitizePolicy) {
  const allowed = allowedElements(policy);
  for (const node of el.querySelectorAll('*')) {
    const attrs = allowed[node.localName];
    expect(attrs, `<${node.localName}> is allowed`).to.exist;
    for (const name of node.getAttributeNames()) {
      expect(name, `<${node.localName} ${name}>`).to.not.match(/^on|^style$/i);
      expect([...attrs!, ...(added[node.localName] ?? [])], `<${node.localName} ${name}>`).to.include(name);
      expect(node.getAttribute(name), `<${node.localName} ${name}>`).to.not.match(/^\W*(javascript|vbscript|data):/i);
    }
  }
  for (const a of el.querySelectorAll('a')) {
    expect(a.getAttribute('href')).to.match(/^(https?:|mailto:)/);
    expect(a.getAttribute('target')).to.equal('_blank');
    expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
  }
  for (const img of el.querySelectorAll('img')) {
    const src = new URL(img.getAttribute('src')!);
    expect(src.protocol).to.equal('https:');
    expect(policy.allowedImageHosts).to.include(src.host);
    expect(img.getAttribute('referrerpolicy')).to.equal('no-referrer');
  }
  if (!policy.allowedImageHosts.length) expect(el.querySelector('img')).to.be.null;
  expect(document.createTreeWalker(el, NodeFilter.SHOW_COMMENT).nextNode()).to.be.null;
}

/** What a visitor's pointer and keyboard would do to every element (links stay unclicked: they open tabs). */
function poke(el: Element) {
  for (const node of el.querySelectorAll('*')) {
    for (const type of ['mouseover', 'focus', 'toggle', 'animationstart']) node.dispatchEvent(new Event(type));
    if (node.localName !== 'a') (node as HTMLElement).click();
  }
}

describe('safe HTML: the XSS corpus on both sanitizer paths', () => {
  const calls: unknown[] = [];
  const win = window as unknown as Trapped;
  const alert = win.alert;

  before(() => {
    win.__xss = (n) => calls.push(n);
    win.alert = (msg) => calls.push(`alert ${String(msg)}`);
  });

  after(async function () {
    this.timeout(30_000);
    // a handler could only fire once an image or media load settles: wait for every one
    const images = rendered.flatMap((el) => Array.from(el.querySelectorAll('img')));
    await waitUntil(() => images.every((img) => img.complete), 'images settled', { timeout: 25_000 });
    await new Promise((r) => setTimeout(r));
    expect(calls, 'trap calls').to.deep.equal([]);
    delete win.__xss;
    win.alert = alert;
    for (const el of rendered) (el.getRootNode() as ShadowRoot).host.remove();
  });

  it('holds at least 50 payloads', () => {
    expect(xssPayloads.length).to.be.at.least(50);
  });

  for (const [i, payload] of xssPayloads.entries()) {
    for (const kind of ['markdown', 'html'] as const) {
      it(`renders payload ${i + 1} as ${kind} inert and identically: ${JSON.stringify(payload).slice(0, 60)}`, async () => {
        for (const policy of [defaultPolicy, withImages]) {
          const el = await renderBoth(payload, kind, policy);
          expectInert(el, policy);
          poke(el);
        }
      });
    }
  }
});

describe('safe HTML: what a reply may contain', () => {
  it('renders the GFM Markdown a reply uses, the same on both paths', async () => {
    const text = [
      '# Title',
      '## Sub',
      'Some **bold**, *em*, ~~gone~~ and `code`.',
      '> quoted',
      '3. three\n4. four',
      '- [x] done\n- [ ] todo',
      '| left | mid | right |\n|:--|:-:|--:|\n| a | b<br>c | d |',
      '```js\nconst a = 1 < 2;\n```',
      '---',
      'line one\nline two',
    ].join('\n\n');
    const el = await renderBoth(text, 'markdown');
    expectInert(el, defaultPolicy);
    expect(el.querySelector('h1')!.textContent).to.equal('Title');
    expect(el.querySelector('strong')!.textContent).to.equal('bold');
    expect(el.querySelector('del')!.textContent).to.equal('gone');
    expect(el.querySelector('blockquote')).to.exist;
    expect(el.querySelector('ol')!.getAttribute('start')).to.equal('3');
    expect(Array.from(el.querySelectorAll('ul li'), (li) => li.textContent!.trim())).to.deep.equal(['☑ done', '☐ todo']);
    expect(Array.from(el.querySelectorAll('th'), (th) => th.getAttribute('align'))).to.deep.equal(['left', 'center', 'right']);
    expect(el.querySelector('td br'), 'a bare <br> in a cell').to.exist;
    expect(el.querySelector('pre code')!.textContent).to.equal('const a = 1 < 2;\n');
    expect(el.querySelector('pre code')!.hasAttribute('class')).to.be.false;
    expect(el.querySelector('hr')).to.exist;
    expect(el.querySelector('p:last-child br')).to.exist;
    expect(el.querySelector('input')).to.be.null;
  });

  it('shows raw HTML as the text it is, keeping the words around a stray tag', async () => {
    const el = await renderBoth('Press <Enter> to send, or <img src=x onerror=alert(1)>.', 'markdown');
    expect(el.textContent!.trim()).to.equal('Press <Enter> to send, or <img src=x onerror=alert(1)>.');
    expect(el.querySelector('img')).to.be.null;
  });

  it('keeps absolute http, https and mailto links and unwraps the rest, relative ones included, to their text', async () => {
    const el = await renderBoth(
      '[a](https://example.com/x) [b](http://example.com) [c](mailto:help@example.com) [d](/returns) [e](tel:123) [f](javascript:alert(1)) [g](HTTPS://EXAMPLE.com/G)',
      'markdown',
    );
    const links = Array.from(el.querySelectorAll('a'), (a) => [a.textContent, a.getAttribute('href')]);
    expect(links).to.deep.equal([
      ['a', 'https://example.com/x'],
      ['b', 'http://example.com'],
      ['c', 'mailto:help@example.com'],
      ['g', 'https://example.com/G'],
    ]);
    expect(el.textContent).to.contain('d e f');
  });

  it('shows images only over https from a listed host, with no referrer', async () => {
    const text =
      '![ok](https://images.example/a.png) ![http](http://images.example/b.png) ![other](https://evil.example/c.png) ![rel](/d.png)';
    const none = await renderBoth(text, 'markdown');
    expect(none.querySelector('img')).to.be.null;
    const some = await renderBoth(text, 'markdown', withImages);
    expectInert(some, withImages);
    expect(Array.from(some.querySelectorAll('img'), (img) => img.getAttribute('src'))).to.deep.equal(['https://images.example/a.png']);
  });

  it('drops an element outside the allow-list with its content', async () => {
    const el = await renderBoth('<p>kept</p><div>dropped <b>too</b></div><form><p>inside</p></form>', 'html');
    expect(el.innerHTML).to.equal('<p>kept</p>');
  });
});
