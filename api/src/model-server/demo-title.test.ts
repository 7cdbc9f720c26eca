import { expect, test } from 'vitest';
import OpenAI from 'openai';
import { demoTitle } from './demo-title.ts';
import { startModelServer } from './server.ts';
import { TITLE_RESPONSE_FORMAT, titleMessages } from '../titles/title-prompt.ts';

test('the demo model names a conversation by the content words of its first message', () => {
  expect(demoTitle({ current_title: null, first_messages: ['Do you ship to Norway?'] })).toEqual({ title: 'Ship Norway', changed: true });
  expect(demoTitle({ current_title: 'Ship Norway', first_messages: ['Do you ship to Norway?'] })).toEqual({
    title: 'Ship Norway',
    changed: false,
  });
  expect(demoTitle({ current_title: null, first_messages: ['hi'] })).toEqual({ title: 'New conversation', changed: true });
});

test('the offline demo answers the title pass with valid structured output', async () => {
  const server = await startModelServer();
  try {
    const openai = new OpenAI({ apiKey: 'demo', baseURL: server.url, maxRetries: 0 });
    const messages = titleMessages({
      currentTitle: null,
      source: 'first_message',
      input: { first: ['What does the Ridge 40 backpack weigh?'], latest: [] },
    });
    const res = await openai.chat.completions.create({ model: 'heed-local', messages, response_format: TITLE_RESPONSE_FORMAT });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ title: 'Ridge 40 Backpack Weigh', changed: true });
  } finally {
    await server.close();
  }
});
