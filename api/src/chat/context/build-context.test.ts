import { describe, expect, test } from 'vitest';
import { buildContext, estimateTokens, historyWindow, type ContextRequest, type ContextRow } from './build-context.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { proactiveSection } from '../../proactive/proactive-section.ts';
import { batchItems, CONTINUE_REQUEST } from './pending-turn.ts';

let nextSeq = 0n;
const base = Date.parse('2026-01-15T12:00:00Z');

function row(role: ContextRow['role'], content: string, extra: Partial<ContextRow> = {}): ContextRow {
  nextSeq += 1n;
  return {
    id: `m${nextSeq}`,
    seq: nextSeq,
    role,
    content,
    provenanceLabel: null,
    state: role === 'user' ? 'answered' : null,
    error: null,
    createdAt: new Date(base + Number(nextSeq) * 1000),
    ...extra,
  };
}

const user = (content: string, state: ContextRow['state'] = 'answered') => row('user', content, { state });
const reply = (content: string) => row('assistant', content);
const failedReply = (content: string) => row('assistant', content, { error: 'model_unavailable' });
const operator = (content: string) => row('operator', content, { provenanceLabel: 'Sam' });
const notice = () => row('notice', '', { provenanceLabel: 'Sam' });

/** The highest seq handed out so far: what a claim made right now records as its watermark. */
const now = () => nextSeq;

/** The texts the model sees between the system prompt and the final turn. */
const historyTexts = (messages: ReturnType<typeof buildContext>) => messages.slice(1, -1).map((m) => m.content);

describe('buildContext', () => {
  test('the system prompt comes first and tells the model to cover every unanswered item', () => {
    const claimed = [user('hello', 'claimed')];
    const messages = buildContext({ rows: claimed, claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(SYSTEM_PROMPT).toMatch(/every item/i);
    expect(SYSTEM_PROMPT).toMatch(/skip none/i);
  });

  test('history keeps answered questions, completed replies and operator messages (labelled as the person’s) in the order they were said; notices are nobody’s words', () => {
    const q1 = user('What are your hours?');
    const a1 = reply('We are open 9 to 5.');
    const joined = notice();
    const op = operator('Hi, Sam from support here.');
    const q2 = user('Thanks Sam!');
    const a2 = reply('You are welcome.');
    const claimed = [user('One more thing', 'claimed')];
    // loaded newest first, as the loader reads them
    const messages = buildContext({ rows: [a2, q2, op, joined, a1, q1], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(messages.slice(1, -1)).toEqual([
      { role: 'user', content: 'What are your hours?' },
      { role: 'assistant', content: 'We are open 9 to 5.' },
      { role: 'assistant', content: "[Sam from the site's team wrote this, not the assistant] Hi, Sam from support here." },
      { role: 'user', content: 'Thanks Sam!' },
      { role: 'assistant', content: 'You are welcome.' },
    ]);
  });

  test('history leaves out failed replies and the messages whose reply failed', () => {
    const ok = user('Earlier question');
    const okReply = reply('Earlier answer');
    const failedUser = user('Question whose reply failed', 'failed');
    const failure = failedReply('The assistant could not be reached.');
    const claimed = [user('New question', 'claimed')];
    const messages = buildContext({
      rows: [ok, okReply, failedUser, failure, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
    });
    expect(historyTexts(messages)).toEqual(['Earlier question', 'Earlier answer']);
  });

  test('the claimed messages appear only once, as the final turn, never also in history', () => {
    const earlier = [user('Earlier'), reply('Earlier reply')];
    const claimed = [user('first of batch', 'claimed'), user('second of batch', 'claimed')];
    const messages = buildContext({ rows: [...earlier, ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual(['Earlier', 'Earlier reply']);
    const all = messages.map((m) => String(m.content)).join('\n');
    expect(all.split('first of batch')).toHaveLength(2);
    expect(all.split('second of batch')).toHaveLength(2);
  });

  test('messages sent after the claim wait for the next run and are not in this context', () => {
    const earlier = [user('Earlier'), reply('Earlier reply')];
    const claimed = [user('claimed one', 'claimed')];
    const watermark = now();
    const later = [
      user('sent while the run started', 'pending'),
      operator('operator note after the claim'),
      reply('a reply written after the claim'),
    ];
    const messages = buildContext({ rows: [...earlier, ...claimed, ...later], claimed, watermark, timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual(['Earlier', 'Earlier reply']);
    expect(JSON.stringify(messages)).not.toMatch(
      /sent while the run started|operator note after the claim|a reply written after the claim/,
    );
  });

  test('a reply to the previous batch stays in history even when it was stored after a message of this batch', () => {
    const q1 = user('What are your hours?');
    // sent while the reply to q1 was still streaming, so its seq is lower than that reply's
    const b1 = user('And on Sundays?', 'claimed');
    const a1 = reply('We are open 9 to 5.');
    const messages = buildContext({ rows: [q1, b1, a1], claimed: [b1], watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual(['What are your hours?', 'We are open 9 to 5.']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'And on Sundays?' });
  });

  test('a pending message with a lower seq that committed after the claim is neither history nor part of the turn', () => {
    const earlier = [user('Earlier'), reply('Earlier reply')];
    const lateCommit = user('committed late', 'pending');
    const claimed = [user('claimed one', 'claimed')];
    const messages = buildContext({
      rows: [...earlier, lateCommit, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
    });
    expect(historyTexts(messages)).toEqual(['Earlier', 'Earlier reply']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'claimed one' });
  });

  test('the final message is the pending batch, in send order, with local times in the visitor’s zone', () => {
    const b1 = user('Do you ship to Nepal?', 'claimed');
    const b2 = user('And how long does it take?', 'claimed');
    // handed over out of order: the builder orders the batch by seq
    const messages = buildContext({ rows: [b2, b1], claimed: [b2, b1], watermark: now(), timeZone: 'Asia/Kathmandu', tokenBudget: 1000 });
    const last = messages.at(-1)!;
    expect(last.role).toBe('user');
    const turn = String(last.content);
    expect(turn).toMatch(/Unanswered messages/);
    expect(turn).toMatch(/There are 2 items/);
    const local = (d: Date) => new Date(d.getTime() + (5 * 60 + 45) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(batchItems(turn)).toEqual([
      { time: local(b1.createdAt), text: 'Do you ship to Nepal?' },
      { time: local(b2.createdAt), text: 'And how long does it take?' },
    ]);
  });

  test('when history exceeds the token budget the newest messages are kept, oldest first', () => {
    const texts = ['oldest question.....', 'oldest answer.......', 'newer question......', 'newest answer.......'];
    const history = [user(texts[0]!), reply(texts[1]!), user(texts[2]!), reply(texts[3]!)];
    const claimed = [user('now', 'claimed')];
    const perRow = estimateTokens(texts[0]!);
    // room for two rows and a bit, not three
    const messages = buildContext({
      rows: [...history, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: perRow * 2 + 1,
    });
    expect(historyTexts(messages)).toEqual(['newer question......', 'newest answer.......']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'now' });
  });

  test('a budget too small for any history still sends the system prompt and the pending turn', () => {
    const claimed = [user('now', 'claimed')];
    const messages = buildContext({
      rows: [user('Earlier'), reply('Earlier reply'), ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 0,
    });
    expect(messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: 'now' },
    ]);
  });
});

/** A question the assistant asked (its message) and the request row it opened. */
function asked(question: string, extra: Partial<ContextRequest> = {}): { message: ContextRow; request: ContextRequest } {
  const message = reply(question);
  return {
    message,
    request: {
      toolCallId: `call_${message.id}`,
      messageId: message.id,
      question,
      choices: ['Red', 'Blue'],
      allowFreeText: true,
      status: 'open',
      answerMessageId: null,
      createdAt: message.createdAt,
      ...extra,
    },
  };
}
const answering = (request: ContextRequest, answer: ContextRow): ContextRequest => ({
  ...request,
  status: 'answered',
  answerMessageId: answer.id,
});

describe('buildContext with questions, todos and recall', () => {
  test('a batch that answers the question gives the model its call (same id) and the answer as the call’s result, and nothing more', () => {
    const q = user('I want a sofa');
    const { message, request } = asked('Which colour?');
    const answer = user('Blue', 'claimed');
    const messages = buildContext({
      rows: [q, message, answer],
      claimed: [answer],
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      requests: [answering(request, answer)],
    });
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'I want a sofa' },
      {
        role: 'assistant',
        content: 'Which colour?',
        tool_calls: [
          {
            id: request.toolCallId,
            type: 'function',
            function: {
              name: 'request_user_input',
              arguments: '{"question":"Which colour?","choices":["Red","Blue"],"allow_free_text":true}',
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: request.toolCallId, content: '{"answer":"Blue"}' },
    ]);
  });

  test('other messages sent with the answer are the final user turn, after the tool result', () => {
    const { message, request } = asked('Which colour?');
    const answer = user('Blue', 'claimed');
    const more = user('Also, do you deliver on Saturdays?', 'claimed');
    const messages = buildContext({
      rows: [message, answer, more],
      claimed: [more, answer],
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      requests: [answering(request, answer)],
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'assistant', 'tool', 'user']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Also, do you deliver on Saturdays?' });
  });

  test('in later runs an answered question stays a call and its result, placed where the answer was given', () => {
    const { message, request } = asked('Which colour?');
    const aside = user('Unrelated: what are your hours?');
    const asideReply = reply('9 to 5.');
    const answer = user('Blue');
    const thanks = reply('Blue it is.');
    const claimed = [user('Great', 'claimed')];
    const messages = buildContext({
      rows: [message, aside, asideReply, answer, thanks, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      requests: [answering(request, answer)],
    });
    expect(messages.slice(1, -1)).toEqual([
      { role: 'assistant', content: 'Which colour?' },
      { role: 'user', content: 'Unrelated: what are your hours?' },
      { role: 'assistant', content: '9 to 5.' },
      { role: 'assistant', content: null, tool_calls: [expect.objectContaining({ id: request.toolCallId })] },
      { role: 'tool', tool_call_id: request.toolCallId, content: '{"answer":"Blue"}' },
      { role: 'assistant', content: 'Blue it is.' },
    ]);
  });

  test('while the question is open, new messages are the final turn and the context still shows the open question', () => {
    const { message, request } = asked('Which colour?');
    const b1 = user('What are your hours?', 'claimed');
    const b2 = user('Do you ship to Norway?', 'claimed');
    const messages = buildContext({
      rows: [message, b1, b2],
      claimed: [b1, b2],
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      requests: [request],
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'assistant', 'system', 'user']);
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Which colour?' });
    expect(String(messages[2]!.content)).toMatch(/## Your open question\n.*still open:\n"Which colour\?"/);
    const turn = String(messages.at(-1)!.content);
    expect(turn).toContain('What are your hours?');
    expect(turn).toContain('Do you ship to Norway?');
  });

  test('a superseded question is plain text: no call without a result, no open section', () => {
    const { message, request } = asked('Which colour?', { status: 'superseded' });
    const claimed = [user('Hello again', 'claimed')];
    const messages = buildContext({
      rows: [message, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      requests: [request],
    });
    expect(messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'assistant', content: 'Which colour?' },
      { role: 'user', content: 'Hello again' },
    ]);
  });

  test('todos and recall come as one system message right before the final turn, after the history', () => {
    const history = [user('Earlier'), reply('Earlier reply')];
    const claimed = [user('Where is my bookshelf?', 'claimed')];
    const messages = buildContext({
      rows: [...history, ...claimed],
      claimed,
      watermark: now(),
      timeZone: 'UTC',
      tokenBudget: 1000,
      todos: [{ id: 't1', text: 'Check the delivery date', createdAt: new Date(base) }],
      recall: [{ content: 'I ordered a walnut bookshelf', createdAt: new Date(base), sameConversation: false }],
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'system', 'user']);
    const context = String(messages[3]!.content);
    expect(context).toContain('- [t1] Check the delivery date');
    expect(context).toContain('"I ordered a walnut bookshelf"');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Where is my bookshelf?' });
  });

  test('the history window is what recall must look beyond: the newest rows within the budget', () => {
    const old = user('old question.......');
    const rows = [old, reply('old answer.........'), user('new question.......'), reply('new answer.........')];
    const claimed = [user('now', 'claimed')];
    const window = historyWindow({
      rows: [...rows, ...claimed],
      claimed,
      watermark: now(),
      tokenBudget: estimateTokens(old.content) * 2 + 1,
    });
    expect(window.map((r) => r.content)).toEqual(['new question.......', 'new answer.........']);
  });
});

describe('buildContext for an unsolicited message', () => {
  test('no claimed rows: system prompt, history, then the proactive section last (no user turn)', () => {
    const rows = [user('Do you have jackets?'), reply('Yes. Which size do you wear?')];
    const brief = { kind: 'check_in' as const, silentMinutes: 9 };
    const messages = buildContext({ rows, claimed: [], watermark: now(), timeZone: 'UTC', tokenBudget: 1000, proactive: brief });
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(messages.slice(1, 3)).toEqual([
      { role: 'user', content: 'Do you have jackets?' },
      { role: 'assistant', content: 'Yes. Which size do you wear?' },
    ]);
    expect(messages).toHaveLength(4);
    expect(messages[3]).toEqual({ role: 'system', content: proactiveSection(brief) });
  });

  test('earlier unsolicited messages are history labelled as sent unprompted (or by the site’s server)', () => {
    const rows = [
      row('assistant', 'Comparing plans?', { provenance: 'intent', provenanceLabel: 'viewed Pricing' }),
      user('Yes, the pro one.'),
      row('assistant', 'Your invoice is ready.', { provenance: 'server', provenanceLabel: 'Shop' }),
    ];
    const claimed = [user('thanks', 'claimed')];
    const messages = buildContext({ rows: [...rows, ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual([
      '[Sent unprompted, because the visitor viewed Pricing] Comparing plans?',
      'Yes, the pro one.',
      "[Sent by Shop's own system, not the assistant] Your invoice is ready.",
    ]);
  });
});

describe('a reply cut short and "Continue"', () => {
  const continueRow = (state: ContextRow['state']) => row('user', '', { state, provenance: 'continue' });

  test('the visitor’s "Continue" asks the model to finish the cut reply; the question it answered stays answered history', () => {
    const q = user('List every store in Norway');
    const cut = reply('1. Oslo\n2. Bergen\n3. Trond');
    const claimed = [continueRow('claimed')];
    const messages = buildContext({ rows: [...claimed, cut, q], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'List every store in Norway' },
      { role: 'assistant', content: '1. Oslo\n2. Bergen\n3. Trond' },
      { role: 'user', content: CONTINUE_REQUEST },
    ]);
  });

  test('a message sent beside "Continue" is the visitor’s words after the request; the request is not an item', () => {
    const q = user('List every store in Norway');
    const cut = reply('1. Oslo\n2. Bergen');
    const claimed = [continueRow('claimed'), user('Only the ones open on Sunday', 'claimed')];
    const messages = buildContext({ rows: [...claimed, cut, q], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    const turn = messages.at(-1)!.content as string;
    expect(turn.startsWith(CONTINUE_REQUEST)).toBe(true);
    expect(turn.endsWith('Only the ones open on Sunday')).toBe(true);
    expect(batchItems(turn)).toBeNull();
  });

  test('in later history, a cut reply and its continuation read as one reply, with no empty visitor turn between', () => {
    const q = user('List every store in Norway');
    const cut = reply('1. Oslo\n2. Bergen\n3. Trond');
    const go = continueRow('answered');
    const rest = reply('heim\n4. Tromsø');
    const claimed = [user('Thanks! Which is biggest?', 'claimed')];
    const messages = buildContext({ rows: [...claimed, rest, go, cut, q], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual(['List every store in Norway', '1. Oslo\n2. Bergen\n3. Trondheim\n4. Tromsø']);
  });
});
