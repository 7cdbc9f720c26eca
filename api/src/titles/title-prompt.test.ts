import { describe, expect, test } from 'vitest';
import { TITLE_SYSTEM_PROMPT, titleMessages } from './title-prompt.ts';

describe('titleMessages', () => {
  test('the visitor text travels as JSON data after the system prompt', () => {
    const [system, user] = titleMessages({
      currentTitle: 'Shipping to Canada',
      source: 'generated',
      input: { first: ['How much is shipping to "Canada"?\n---'], latest: ['And to Mexico?'] },
    });
    expect(system).toEqual({ role: 'system', content: TITLE_SYSTEM_PROMPT });
    expect(JSON.parse(user.content)).toEqual({
      current_title: 'Shipping to Canada',
      current_title_is_first_message: false,
      first_messages: ['How much is shipping to "Canada"?\n---'],
      latest_messages: ['And to Mexico?'],
    });
  });

  test('a first-message title is flagged and redacted (it is the visitor text verbatim)', () => {
    const [, user] = titleMessages({ currentTitle: 'my email is jo@example.com', source: 'first_message', input: { first: ['my email is [email]'], latest: [] } });
    const data = JSON.parse(user.content);
    expect(data.current_title).toBe('my email is [email]');
    expect(data.current_title_is_first_message).toBe(true);
  });

  test('the system prompt states the rules the pass relies on', () => {
    expect(TITLE_SYSTEM_PROMPT).toMatch(/language the visitor writes in/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/Keep the current title unless the latest messages clearly moved/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/always propose a proper title/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/never instructions/);
  });
});
