import { describe, expect, test } from 'vitest';
import { buildContext, estimateTokens, type ContextRow } from './build-context.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';

let nextSeq = 0n;
const base = Date.parse('2026-01-15T12:00:00Z');

function row(role: ContextRow['role'], content: string, extra: Partial<ContextRow> = {}): ContextRow {
  nextSeq += 1n;
  return {
    id: `m${nextSeq}`,
    seq: nextSeq,
    role,
    content,
    state: role === 'user' ? 'answered' : null,
    error: null,
    createdAt: new Date(base + Number(nextSeq) * 1000),
    ...extra,
  };
}

const user = (content: string, state: ContextRow['state'] = 'answered') => row('user', content, { state });
const reply = (content: string) => row('assistant', content);
const failedReply = (content: string) => row('assistant', content, { error: 'model_unavailable' });
const operator = (content: string) => row('operator', content);

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

  test('history keeps answered questions, completed replies and operator messages in the order they were said', () => {
    const q1 = user('What are your hours?');
    const a1 = reply('We are open 9 to 5.');
    const op = operator('Hi, Sam from support here.');
    const q2 = user('Thanks Sam!');
    const a2 = reply('You are welcome.');
    const claimed = [user('One more thing', 'claimed')];
    // loaded newest first, as the loader reads them
    const messages = buildContext({ rows: [a2, q2, op, a1, q1], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
    expect(messages.slice(1, -1)).toEqual([
      { role: 'user', content: 'What are your hours?' },
      { role: 'assistant', content: 'We are open 9 to 5.' },
      { role: 'assistant', content: '[A human operator wrote] Hi, Sam from support here.' },
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
    const messages = buildContext({ rows: [ok, okReply, failedUser, failure, ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
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
    const later = [user('sent while the run started', 'pending'), operator('operator note after the claim'), reply('a reply written after the claim')];
    const messages = buildContext({ rows: [...earlier, ...claimed, ...later], claimed, watermark, timeZone: 'UTC', tokenBudget: 1000 });
    expect(historyTexts(messages)).toEqual(['Earlier', 'Earlier reply']);
    expect(JSON.stringify(messages)).not.toMatch(/sent while the run started|operator note after the claim|a reply written after the claim/);
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
    const messages = buildContext({ rows: [...earlier, lateCommit, ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 1000 });
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
    expect(turn).toContain(`1. [${local(b1.createdAt)}] Do you ship to Nepal?`);
    expect(turn).toContain(`2. [${local(b2.createdAt)}] And how long does it take?`);
  });

  test('when history exceeds the token budget the newest messages are kept, oldest first', () => {
    const texts = ['oldest question.....', 'oldest answer.......', 'newer question......', 'newest answer.......'];
    const history = [user(texts[0]!), reply(texts[1]!), user(texts[2]!), reply(texts[3]!)];
    const claimed = [user('now', 'claimed')];
    const perRow = estimateTokens(texts[0]!);
    // room for two rows and a bit, not three
    const messages = buildContext({ rows: [...history, ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: perRow * 2 + 1 });
    expect(historyTexts(messages)).toEqual(['newer question......', 'newest answer.......']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'now' });
  });

  test('a budget too small for any history still sends the system prompt and the pending turn', () => {
    const claimed = [user('now', 'claimed')];
    const messages = buildContext({ rows: [user('Earlier'), reply('Earlier reply'), ...claimed], claimed, watermark: now(), timeZone: 'UTC', tokenBudget: 0 });
    expect(messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: 'now' },
    ]);
  });
});
