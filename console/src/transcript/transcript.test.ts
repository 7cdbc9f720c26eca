/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './transcript.ts';
import type { HeedConsoleTranscript } from './transcript.component.ts';
import type { Transcript, TranscriptMessage } from '../state/contract.ts';
import { attachment, fakeConsoleApi, owner, PIXEL, refusal, transcript } from '../test-support/fake-console-api.ts';

const msg = (id: string, role: string, provenance: string | null, provenanceLabel: string | null, content = ''): TranscriptMessage => ({
  id,
  role,
  content,
  provenance,
  provenanceLabel,
  state: null,
  error: null,
  createdAt: new Date(Date.UTC(2026, 0, 1, 10, 1, Number(id.slice(1)))).toISOString(),
  runId: null,
  attachments: [],
});

/** A server that holds one conversation: takeOver, reply and handBack change what the next transcript answers. */
function serverOf(data: Transcript) {
  const add = (m: TranscriptMessage) => (data = { ...data, messages: [...data.messages, m] });
  const hold = (heldBy: Transcript['conversation']['heldBy']) =>
    (data = { ...data, conversation: { ...data.conversation, heldBy, waitingForPerson: false } });
  let n = 10;
  return {
    get data() {
      return data;
    },
    add,
    over: {
      transcript: async () => data,
      takeOver: async () => {
        hold({ id: owner.id, name: 'Ana' });
        add(msg(`m${++n}`, 'notice', 'operator_joined', 'Ana'));
        return data.conversation;
      },
      reply: async (input) => {
        const m = msg(`m${++n}`, 'operator', 'operator', 'Ana', input.text);
        add(m);
        return m;
      },
      handBack: async () => {
        hold(null);
        add(msg(`m${++n}`, 'notice', 'operator_left', 'Ana'));
        return data.conversation;
      },
    } satisfies Parameters<typeof fakeConsoleApi>[0],
  };
}

async function open(failed = false, over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const data = transcript({}, failed);
  const fake = fakeConsoleApi({ transcript: async () => data, ...over });
  const id = over.transcript ? (await over.transcript('')).conversation.id : data.conversation.id;
  const el = await fixture<HeedConsoleTranscript>(
    html`<heed-console-transcript .api=${fake.api} .me=${owner} .conversationId=${id}></heed-console-transcript>`,
  );
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('h1'), 'transcript shown');
  return { el, root, fake, data };
}

describe('heed-console-transcript', () => {
  it('shows every message with who wrote it and the exact time in both zones', async () => {
    const { root } = await open();
    const messages = [...root.querySelectorAll('.message')];
    expect(messages.map((m) => m.querySelector('strong')!.textContent)).to.deep.equal(['Visitor', 'Visitor', 'Visitor', 'AI']);
    expect(messages[0]!.querySelector('time')!.getAttribute('datetime')).to.equal('2026-01-01T10:00:01.000Z');
    expect(messages[0]!.querySelector('.visitor-time')!.textContent).to.match(/visitor: .*19:00:01/);
  });

  it('shows the batched run: model, tokens, first token, duration and its three claimed messages', async () => {
    const { root } = await open();
    const cells = [...root.querySelectorAll('tr[data-run] td')].map((td) => td.textContent!.trim());
    expect(cells).to.include.members(['completed', 'test-model', '1', '321 / 42', '850 ms', '5.0 s', '3 (#1, #2, #3)']);
  });

  it("shows each run's finish reason, a reply cut at the token cap in words", async () => {
    const { root } = await open();
    const header = [...root.querySelectorAll('[aria-label="Runs table"] th')].map((th) => th.textContent);
    const cells = [...root.querySelectorAll('tr[data-run] td')].map((td) => td.textContent!.trim());
    expect(cells[header.indexOf('Finish')]).to.equal('cut short (length)');
  });

  it("lists each run's site knowledge: what the model was shown, what the reply cited, pages as links", async () => {
    const data = transcript({});
    data.runs = data.runs.map((r) => ({
      ...r,
      knowledge: [
        { n: 1, title: 'Shipping', url: 'https://shop.example/shipping', heading: 'Costs', cited: true },
        { n: 2, title: 'Do you ship to Iceland?', url: null, heading: 'Do you ship to Iceland?', cited: false },
      ],
    }));
    const { root } = await open(false, { transcript: async () => data });
    const items = [...root.querySelectorAll('[aria-label="Site knowledge per run"] li li')].map((li) =>
      li.textContent!.replace(/\s+/g, ' ').trim(),
    );
    expect(items).to.deep.equal(['[1] Shipping — Costs — cited', '[2] Do you ship to Iceland? (file or snippet) — not cited']);
    expect(root.querySelector<HTMLAnchorElement>('[aria-label="Site knowledge per run"] a')!.href).to.equal(
      'https://shop.example/shipping',
    );
  });

  it('shows title history and the cost of title checks', async () => {
    const { root } = await open();
    expect(root.querySelector('[aria-label="Title history"]')!.textContent).to.contain('generated: Sizes and shipping');
    expect(root.querySelector('[aria-label="Title checks table"]')!.textContent).to.contain('$0.00012');
  });

  it('marks the conversation read for this operator on opening', async () => {
    const { fake, data } = await open();
    await waitUntil(() => fake.callsOf('markRead').length === 1);
    expect(fake.callsOf('markRead')[0]).to.deep.equal([data.conversation.id]);
  });

  it('offers Retry on a failed reply and retries', async () => {
    const { root, fake, data } = await open(true);
    expect(root.querySelector('.message[data-failed=true]')!.textContent).to.contain('model_timeout');
    const retry = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Retry')!;
    retry.click();
    await waitUntil(() => fake.callsOf('retry').length === 1);
    expect(fake.callsOf('retry')[0]).to.deep.equal([data.conversation.id]);
  });

  it('marks a reply cut short, and shows the visitor’s Continue as a request, not as words', async () => {
    const base = transcript({}, false);
    const cut = { ...msg('m5', 'assistant', null, null, 'Our stores: 1. Oslo 2. Bergen'), cutShort: true };
    const request = { ...msg('m6', 'user', 'continue', null, ''), state: 'answered' };
    const rest = msg('m7', 'assistant', null, null, ' 3. Trondheim');
    const { root } = await open(false, { transcript: async () => ({ ...base, messages: [...base.messages, cut, request, rest] }) });
    const items = [...root.querySelectorAll('.message')];
    expect(items.at(-3)!.textContent).to.contain("Cut short at the model's length limit.");
    expect(items.at(-2)!.textContent).to.contain('Asked for the rest of the reply above (Continue)');
    expect(items.at(-1)!.textContent).to.not.contain('Cut short');
  });

  it('marks a failed reply answered by a retry as superseded, with no Retry left', async () => {
    const failedOnce = transcript({}, true);
    const answer = msg('m5', 'assistant', null, null, 'Your parcel left the depot today.');
    // the latest run answered: the conversation is no longer failed
    const data = { ...failedOnce, conversation: { ...failedOnce.conversation, failed: false }, messages: [...failedOnce.messages, answer] };
    const { root } = await open(false, { transcript: async () => data });
    const failure = root.querySelector('.message[data-failed=true]')!;
    expect(failure.getAttribute('data-superseded')).to.equal('true');
    expect(failure.textContent).to.contain('superseded: a later reply answered');
    expect(root.querySelector('.message .error')).to.equal(null);
    expect([...root.querySelectorAll('button')].some((b) => b.textContent === 'Retry')).to.equal(false);
  });

  it('renames, pinned when asked, and asks for a retitle', async () => {
    const { root, fake, data } = await open();
    root.querySelector<HTMLInputElement>('input[name=title]')!.value = 'Refund for order 1042';
    root.querySelector<HTMLInputElement>('input[name=pin]')!.checked = true;
    root.querySelector<HTMLFormElement>('form.rename')!.requestSubmit();
    await waitUntil(() => fake.callsOf('rename').length === 1);
    expect(fake.callsOf('rename')[0]).to.deep.equal([data.conversation.id, 'Refund for order 1042', true]);
    await waitUntil(() => [...root.querySelectorAll('button')].every((b) => !b.disabled));
    [...root.querySelectorAll('button')].find((b) => b.textContent === 'Retitle')!.click();
    await waitUntil(() => fake.callsOf('retitle').length === 1);
  });

  it('reloads when the conversation changes on the live stream', async () => {
    const { fake, data } = await open();
    const before = fake.callsOf('transcript').length;
    fake.emit({ ...data.conversation, attention: 'live' });
    await waitUntil(() => fake.callsOf('transcript').length === before + 1, 'reloaded');
  });

  it('shows notices as centred lines and labels operator and unsolicited messages by their provenance', async () => {
    const data = transcript({ waitingForPerson: true });
    data.messages.push(
      msg('m51', 'notice', 'handoff_requested', 'Shop'),
      msg('m52', 'notice', 'operator_joined', 'Ana'),
      msg('m53', 'operator', 'operator', 'Ana', 'Hi, Ana here.'),
      msg('m54', 'notice', 'operator_left', 'Ana'),
      msg('m55', 'assistant', 'intent', 'viewed Pricing', 'Questions about plans?'),
      msg('m56', 'assistant', 'check_in', null, 'Still there?'),
      msg('m57', 'assistant', 'server', 'Shop', 'Your order shipped.'),
    );
    const { root } = await open(false, { transcript: async () => data });
    expect([...root.querySelectorAll('.notice span')].map((n) => n.textContent)).to.deep.equal([
      'Waiting for a person',
      'Ana joined',
      'Ana left',
    ]);
    expect([...root.querySelectorAll('.message strong')].map((s) => s.textContent).slice(4)).to.deep.equal([
      'Operator — Ana',
      'Because you viewed Pricing',
      'Check-in',
      'From Shop',
    ]);
    expect(root.querySelector('.facts .waiting')!.textContent).to.contain('Waiting for a person');
  });

  it('takes over, replies and hands back, each showing at once', async () => {
    const server = serverOf(transcript({ waitingForPerson: true }));
    const { root } = await open(false, server.over);
    const takeover = () => root.querySelector('heed-console-takeover')!.shadowRoot!;
    const button = (text: string) => [...takeover().querySelectorAll('button')].find((b) => b.textContent!.trim() === text);
    button('Take over')!.click();
    await waitUntil(() => button('Send'), 'reply box shown');
    expect(takeover().querySelector('.held')!.textContent).to.contain('Held by Ana');
    expect([...root.querySelectorAll('.notice span')].map((n) => n.textContent)).to.deep.equal(['Ana joined']);
    takeover().querySelector('textarea')!.value = 'Hi, Ana here.';
    button('Send')!.click();
    await waitUntil(() => root.querySelector('.message[data-role=operator]'), 'reply shown');
    expect(root.querySelector('.message[data-role=operator] .content')!.textContent).to.equal('Hi, Ana here.');
    button('Hand back')!.click();
    await waitUntil(() => button('Take over'), 'handed back');
    expect([...root.querySelectorAll('.notice span')].map((n) => n.textContent)).to.deep.equal(['Ana joined', 'Ana left']);
  });

  it('shows a visitor’s message sent while held the moment the live stream reports the conversation', async () => {
    const server = serverOf(transcript({ heldBy: { id: owner.id, name: 'Ana' } }));
    const { root, fake } = await open(false, server.over);
    server.add(msg('m60', 'user', null, null, 'Are you a person?'));
    fake.emit({ ...server.data.conversation, updatedAt: '2026-01-01T10:05:00.000Z' });
    await waitUntil(
      () => root.querySelector('.messages li:last-child .content')?.textContent === 'Are you a person?',
      'new visitor message shown',
    );
    expect(root.querySelector('heed-console-takeover')!.shadowRoot!.querySelector('textarea')).to.exist;
  });

  it('hides a private conversation’s words and offers no takeover', async () => {
    const data = transcript({ private: true, title: null });
    data.messages = data.messages.map((m) => ({ ...m, content: '', redacted: true }));
    const { root } = await open(false, { transcript: async () => data });
    expect(root.querySelector('.private')!.textContent).to.equal("Private — the visitor's words are hidden");
    expect([...root.querySelectorAll('.message .content')].map((c) => c.textContent)).to.deep.equal([
      'Words hidden',
      'Words hidden',
      'Words hidden',
      'Words hidden',
    ]);
    const takeover = root.querySelector('heed-console-takeover')!.shadowRoot!;
    expect([...takeover.querySelectorAll('button')].map((b) => b.textContent!.trim())).to.deep.equal(['Add note']);
  });

  it('shows a message’s files under its words: an image that enlarges from the keyboard, and a file as a link', async () => {
    const data = transcript();
    const log = attachment({ name: 'console.log', mime: 'text/plain', kind: 'file', bytes: 2048, width: null, height: null });
    data.messages[0] = { ...data.messages[0]!, attachments: [attachment({ name: 'error.png', url: PIXEL }), log] };
    const { el, root } = await open(false, { transcript: async () => data });
    const first = root.querySelector('.message')!;
    expect(first.querySelector('.content')!.textContent).to.equal('Question 1');
    const files = first.querySelector('heed-message-attachments')!.shadowRoot!;
    expect(files.querySelector('img')!.alt).to.equal('error.png');
    const link = files.querySelector('a')!;
    expect([link.textContent, link.href, files.querySelector('.file .facts')!.textContent]).to.deep.equal([
      'console.log',
      new URL(log.url!, `${location.origin}/`).href,
      'Plain text · 2 KB',
    ]);
    const thumb = files.querySelector<HTMLButtonElement>('button[aria-label="Enlarge error.png"]')!;
    thumb.focus();
    await sendKeys({ press: 'Enter' });
    const dialog = files.querySelector('dialog')!;
    await waitUntil(() => dialog.open, 'the image opens in a dialog');
    expect(dialog.querySelector('img')!.alt).to.equal('error.png');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog.open && files.activeElement === thumb, 'closed, focus back on the thumbnail');
    expect(root.querySelectorAll('heed-message-attachments')).to.have.length(1);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('shows only what a private conversation’s files are: their type and size, withheld, with no link', async () => {
    const data = transcript({ private: true, title: null });
    data.messages = data.messages.map((m) => ({ ...m, content: '', redacted: true }));
    data.messages[0] = { ...data.messages[0]!, attachments: [attachment({ name: '', url: null })] };
    const { el, root } = await open(false, { transcript: async () => data });
    const files = root.querySelector('.message heed-message-attachments')!.shadowRoot!;
    expect(files.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'PNG image · 1.2 MB (withheld: the visitor made this conversation private)',
    );
    expect(files.querySelector('a, img')).to.equal(null);
    await expect(el).shadowDom.to.be.accessible();
  });

  it("shows the team's notes between the messages at their time, marked as the team's only", async () => {
    const data = transcript();
    data.notes = [
      { id: 'n1', authorName: 'Ana', operatorId: owner.id, content: 'Wholesale customer', createdAt: '2026-01-01T10:00:02.500Z' },
    ];
    const { root } = await open(false, { transcript: async () => data });
    const items = [...root.querySelectorAll('.messages > li')];
    const note = root.querySelector('.messages li.note')!;
    expect(note.querySelector('strong')!.textContent).to.equal('Internal note — Ana');
    expect(note.textContent).to.contain('only your team sees this');
    expect(note.querySelector('.content')!.textContent).to.equal('Wholesale customer');
    expect(items.indexOf(note)).to.be.greaterThan(0);
  });

  it('shows a takeover refusal inline', async () => {
    const { root } = await open(false, {
      takeOver: async () => Promise.reject(refusal('CONFLICT', 'held_by_other', 'Ben has already taken this conversation over.')),
    });
    const takeover = root.querySelector('heed-console-takeover')!.shadowRoot!;
    [...takeover.querySelectorAll('button')].find((b) => b.textContent === 'Take over')!.click();
    await waitUntil(() => takeover.querySelector('[role=alert]'));
    expect(takeover.querySelector('[role=alert]')!.textContent).to.equal('Ben has already taken this conversation over.');
  });

  it('is accessible', async () => {
    const { el } = await open(true);
    await expect(el).shadowDom.to.be.accessible();
  });
});
