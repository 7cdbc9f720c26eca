import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { converse } from '../support/dialects/converse.ts';
import { startDialectServer, type DialectServer, type Personality } from '../support/dialects/dialect-server.ts';
import { personalities } from '../support/dialects/personalities.ts';

/**
 * Servers that refuse a parameter Heed sends: the first message is answered all the same (the
 * request sent again without it, or under its other name), the finding is logged once, and
 * later messages are asked the way the server takes at the first request.
 */
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

/** A model name of its own for each test: findings are kept per model. */
async function freshModel(): Promise<string> {
  const model = `model-${randomUUID().slice(0, 8)}`;
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { model } });
  heed.services.sites.clear();
  return model;
}

/** Two conversations with `p`: the first learns, the second is asked right at once. */
async function learnsOnce(p: Personality, warning: RegExp) {
  const model = await freshModel();
  const first = await converse(heed, dialect, p);
  expect(first.stored).toEqual({ content: 'We open at nine.', error: null });
  expect(first.run.attempts).toBe(1);
  const [refused, accepted] = dialect.requests.map((r) => r.body);
  const warnings = heed.logs.filter((l) => l.includes(model) && l.includes('model server refused'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(warning);
  const second = await converse(heed, dialect, p);
  expect(second.stored.content).toBe('We open at nine.');
  expect(dialect.requests).toHaveLength(1);
  expect(heed.logs.filter((l) => l.includes(model) && l.includes('model server refused'))).toHaveLength(1);
  return { refused: refused!, accepted: accepted!, later: dialect.requests[0]!.body };
}

test('OpenAI o-series: max_tokens refused, max_completion_tokens sent instead', async () => {
  const { refused, accepted, later } = await learnsOnce(personalities.rejectsMaxTokens, /refused max_tokens.*max_completion_tokens/);
  expect(refused.max_tokens).toBe(1024);
  expect(accepted).toMatchObject({ max_completion_tokens: 1024 });
  expect(accepted.max_tokens).toBeUndefined();
  expect(later.max_tokens).toBeUndefined();
});

test('Ollama model without tool support: answered without tools', async () => {
  const { refused, accepted, later } = await learnsOnce(personalities.modelWithoutTools, /refused tools.*OPENAI_COMPAT=no-tools/);
  expect(refused.tools).toBeDefined();
  expect(accepted.tools).toBeUndefined();
  expect(accepted.tool_choice).toBeUndefined();
  expect(later.tools).toBeUndefined();
});

test('llama.cpp without --jinja: answered without tools after one refusal, not three paid attempts', async () => {
  const { accepted } = await learnsOnce(personalities.toolsNeedJinja, /refused tools/);
  expect(accepted.tools).toBeUndefined();
});

test('vLLM without --enable-auto-tool-choice: tools offered without tool_choice', async () => {
  const { accepted, later } = await learnsOnce(personalities.noAutoToolChoice, /refused tool_choice/);
  expect(accepted.tools).toBeDefined();
  expect(accepted.tool_choice).toBeUndefined();
  expect(later.tool_choice).toBeUndefined();
});

test('a server that rejects stream_options: streamed without it', async () => {
  const { accepted } = await learnsOnce(personalities.noStreamOptions, /refused stream_options/);
  expect(accepted.stream_options).toBeUndefined();
  expect(accepted.stream).toBe(true);
});
