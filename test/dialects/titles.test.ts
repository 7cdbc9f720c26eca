import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { converse } from '../support/dialects/converse.ts';
import { startDialectServer, type DialectServer, type Personality } from '../support/dialects/dialect-server.ts';
import { titlePersonalities } from '../support/dialects/title-personalities.ts';
import { titleRow } from '../support/titles.ts';

/** Titles from model servers that answer or refuse structured output in their own ways. */
let dialect: DialectServer;
let heed: TestHeed;
beforeAll(async () => {
  dialect = await startDialectServer();
  heed = await TestHeed.start({ env: { OPENAI_BASE_URL: dialect.url } });
});
afterAll(async () => {
  await heed?.stop();
  await dialect?.close();
});

/** A conversation with a reply, then one title pass with a model of its own (findings are per model). */
async function titled(p: Personality) {
  const model = `title-${randomUUID().slice(0, 8)}`;
  const { conversationId } = await converse(heed, dialect, p);
  const result = await heed.titlePass({ model });
  const titleBodies = dialect.requests.filter((r) => !r.body.stream).map((r) => r.body);
  return { model, result, row: await titleRow(heed, conversationId), titleBodies };
}

test('a title in a Markdown fence is read', async () => {
  const { row } = await titled(titlePersonalities.fenced);
  expect(row).toMatchObject({ title: 'Opening hours', titleSource: 'generated' });
});

test('a server without JSON-schema output: asked again with json_object, the title stored, the finding logged once', async () => {
  const { row, titleBodies, model } = await titled(titlePersonalities.noJsonSchema);
  expect(row).toMatchObject({ title: 'Opening hours', titleSource: 'generated' });
  expect(titleBodies.map((b) => (b.response_format as { type: string }).type)).toEqual(['json_schema', 'json_object']);
  expect(heed.logs.filter((l) => l.includes(model) && l.includes('refused response_format json_schema'))).toHaveLength(1);
});

test('a server without response_format: json_schema, json_object, then plain text, the title read from the words', async () => {
  const { row, titleBodies } = await titled(titlePersonalities.noResponseFormat);
  expect(row).toMatchObject({ title: 'Opening hours', titleSource: 'generated' });
  expect(titleBodies.map((b) => (b.response_format as { type: string } | undefined)?.type ?? 'text')).toEqual([
    'json_schema',
    'json_object',
    'text',
  ]);
});

test('an answer that is not a title is rejected with a log line saying why, never what', async () => {
  const { result } = await titled(titlePersonalities.chatty);
  expect(result.outcomes.rejected).toBe(1);
  const line = heed.logs.find((l) => l.includes('title answer rejected'));
  expect(line).toMatch(/not JSON/);
  expect(line).not.toContain('4242');
});
