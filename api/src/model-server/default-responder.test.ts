import { describe, expect, it } from 'vitest';
import { defaultResponder, demoReply, knowledgeQuote, unansweredItems } from './default-responder.ts';
import { lastUserText } from './last-user-text.ts';

describe('demoReply', () => {
  it('echoes at most the first 200 characters', () => {
    expect(demoReply('  hi  ')).toBe('You said: hi');
    expect(demoReply('x'.repeat(300))).toBe(`You said: ${'x'.repeat(200)}`);
  });

  it('greets when there is nothing to echo', () => {
    expect(demoReply('')).toBe('Hello! Say something and I will answer.');
  });

  it('numbers one line per batch item and shortens long items', () => {
    const reply = demoReply(`Unanswered messages — there are 2 items\n- 09:15 — hello\n- 09:16 — ${'long '.repeat(20)}`);
    expect(reply).toBe(`1. About “hello”: noted.\n2. About “${'long '.repeat(12)}…”: noted.`);
  });
});

describe('unansweredItems', () => {
  it('is null without the section', () => {
    expect(unansweredItems('just a message')).toBeNull();
  });

  it('joins continuation lines and stops at unmarked text after a blank line', () => {
    const text = '## Unanswered messages\n1. (10:00) first line\n   second line\n2. (10:01) "quoted"\n\nPlease cover each one.';
    expect(unansweredItems(text)).toEqual(['first line second line', 'quoted']);
  });

  it('reads time-stamped lines without list markers', () => {
    expect(unansweredItems('Unanswered messages:\n[10:42] hi\n[2026-01-05 10:43] price?')).toEqual(['hi', 'price?']);
  });

  it('falls back to one item per line when nothing is marked', () => {
    expect(unansweredItems('Unanswered messages:\nhi\nprice?')).toEqual(['hi', 'price?']);
  });
});

describe('lastUserText', () => {
  it('takes the last user message and joins text parts', () => {
    const messages = [
      { role: 'user', content: 'old' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: 'reply' },
    ];
    expect(lastUserText(messages)).toBe('a\nb');
  });
});

describe('answers to a question', () => {
  it('acknowledges the visitor’s answer when the request ends with the tool result', () => {
    const messages = [
      { role: 'user', content: 'Can you book it?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'request_user_input', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ answer: 'Tuesday' }) },
    ];
    expect(defaultResponder({ id: 1, body: { messages }, headers: {}, receivedAt: 0, aborted: false })).toEqual({
      text: 'Thanks, noted: Tuesday',
    });
  });
});

describe('the demo model with site knowledge', () => {
  it('quotes the best excerpt’s first sentence and cites it; without the section it echoes as before', async () => {
    const { contextSections } = await import('../chat/context/context-sections.ts');
    const section = contextSections({
      openQuestion: null,
      todos: [],
      recall: [],
      knowledge: [
        {
          title: 'Shipping · Trailhead Outfitters',
          url: 'http://127.0.0.1:3001/shipping',
          heading: 'Costs',
          text: 'Shipping is free for orders above 600 NOK. Below that, 79 NOK.',
        },
      ],
      timeZone: 'UTC',
    })!;
    const messages = [
      { role: 'system' as const, content: section },
      { role: 'user' as const, content: 'How much is shipping?' },
    ];
    expect(knowledgeQuote(messages)).toBe('From our Shipping page: “Shipping is free for orders above 600 NOK.” [1]');
    expect(knowledgeQuote([{ role: 'user', content: 'hi' }])).toBeNull();
  });
});
