import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkModel } from '../../api/src/model-check/model-check.ts';
import { formatReport } from '../../api/src/model-check/format-report.ts';
import { startDialectServer, type DialectServer, type Personality } from '../support/dialects/dialect-server.ts';
import { personalities } from '../support/dialects/personalities.ts';
import { titlePersonalities, withTitle } from '../support/dialects/title-personalities.ts';
import { sendCompletion } from '../support/dialects/sse.ts';

/** `npm run model:check` against servers of several dialects: the report an operator reads. */
let dialect: DialectServer;
beforeAll(async () => {
  dialect = await startDialectServer();
});
afterAll(() => dialect?.close());

const titleJson = (res: Parameters<Personality>[0]) => sendCompletion(res, '{"title":"Opening hours","changed":true}');

async function check(p: Personality, declared: Parameters<typeof checkModel>[0]['declared'] = []) {
  dialect.use(p);
  const target = {
    openai: new OpenAI({ apiKey: 'k', baseURL: dialect.url, maxRetries: 0 }),
    baseUrl: dialect.url,
    model: 'm',
    titleModel: 'm',
    declared,
    timeoutMs: 10_000,
  };
  const report = await checkModel(target);
  return { report, text: formatReport(report, target), statuses: report.lines.map((l) => `${l.check}: ${l.status}`) };
}

test('a server that takes everything: all works, nothing to set', async () => {
  const { statuses, text } = await check(titlePersonalities.asked);
  expect(statuses).toEqual(['reply with tools: works', 'reply without tools: works', 'title: works']);
  expect(text).toContain('nothing to set');
});

test('an o-series model: falls back to max_completion_tokens and says which flag to set', async () => {
  const p: Personality = (res, body, n) =>
    body.max_tokens !== undefined ? personalities.rejectsMaxTokens(res, body) : titlePersonalities.asked(res, body, n);
  const { statuses, text, report } = await check(p);
  expect(statuses).toEqual(['reply with tools: falls back', 'reply without tools: works', 'title: works']);
  expect(report.flags).toEqual(['max-completion-tokens']);
  expect(text).toContain('Set OPENAI_COMPAT=max-completion-tokens');
});

test('an Ollama model without tools, and a server without response_format: each falls back, the flags listed', async () => {
  const { statuses, report } = await check(withTitle(titlePersonalities.noResponseFormat, personalities.modelWithoutTools));
  expect(statuses).toEqual(['reply with tools: falls back', 'reply without tools: works', 'title: falls back']);
  expect(report.flags).toEqual(['no-tools', 'no-json-schema', 'no-response-format']);
});

test('declared flags are not learned again', async () => {
  const { statuses } = await check(withTitle(titleJson, personalities.modelWithoutTools), ['no-tools']);
  expect(statuses).toEqual(['reply with tools: works', 'reply without tools: works', 'title: works']);
});

test("a model the server does not know: every check fails with the server's own words", async () => {
  const { statuses, text } = await check(personalities.unknownModel);
  expect(statuses).toEqual(['reply with tools: fails', 'reply without tools: fails', 'title: fails']);
  expect(text).toContain('the server said: HTTP 404 model "llama9" not found, try pulling it first');
  expect(text).toContain('FAIL reply with tools — model_rejected');
});
