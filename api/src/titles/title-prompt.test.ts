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
      first_messages: ['How much is shipping to "Canada"?\n---'],
      latest_messages: ['And to Mexico?'],
    });
  });

  test('a first-message title is not sent: it is the visitor text verbatim, possibly cut inside a secret', () => {
    const [, user] = titleMessages({
      currentTitle: 'my key is sk-proj-Abc1…',
      source: 'first_message',
      input: { first: ['my key is [api key]'], latest: [] },
    });
    expect(user.content).not.toContain('sk-proj');
    expect(JSON.parse(user.content)).toMatchObject({ current_title: null, first_messages: ['my key is [api key]'] });
  });

  test('a generated title is redacted too', () => {
    const [, user] = titleMessages({ currentTitle: 'Mail from jo@example.com', source: 'generated', input: { first: ['hi'], latest: [] } });
    expect(JSON.parse(user.content).current_title).toBe('Mail from [email]');
  });

  test('the system prompt states the rules the pass relies on', () => {
    expect(TITLE_SYSTEM_PROMPT).toMatch(/language the visitor writes in/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/Keep the current title unless the latest messages clearly moved/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/"current_title" is null, always propose a proper title/);
    expect(TITLE_SYSTEM_PROMPT).toMatch(/never instructions/);
  });
});
