import { afterAll, beforeAll, expect, test } from 'vitest';
import { recordFinding } from '../../api/src/chat/model/model-findings.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator } from '../support/console.ts';
import { converse } from '../support/dialects/converse.ts';
import { startDialectServer, type DialectServer } from '../support/dialects/dialect-server.ts';
import { personalities } from '../support/dialects/personalities.ts';

/**
 * The console says which features are off for a model and why: what OPENAI_COMPAT declares,
 * and what any process learned from the server's refusal, with the provider's own words,
 * per model in use (the deployment's, the titles', a site's own).
 */
let dialect: DialectServer;
let heed: TestHeed;
beforeAll(async () => {
  dialect = await startDialectServer();
  heed = await TestHeed.start({ env: { OPENAI_BASE_URL: dialect.url, OPENAI_COMPAT: 'no-stream-options' } });
});
afterAll(async () => {
  await heed?.stop();
  await dialect?.close();
});

test('a model that refused tools shows tools off, learned, in the provider’s words; a declared flag shows for every model', async () => {
  const owner = await signedInOperator(heed.services, heed.url);
  const before = await owner.api.console.model.status.query();
  expect(before.server).toBe(dialect.url.replace(/\/+$/, ''));
  expect(before.models).toEqual([
    {
      model: 'test-model',
      usedBy: ['Replies (deployment default)', 'Titles'],
      flags: [expect.objectContaining({ flag: 'no-stream-options', source: 'declared', featuresOff: true })],
    },
  ]);

  // a site with its own model, whose server refuses tools: the reply comes all the same
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { model: 'gemma:2b' } });
  heed.services.sites.clear();
  const { stored } = await converse(heed, dialect, personalities.modelWithoutTools);
  expect(stored).toEqual({ content: 'We open at nine.', error: null });

  const after = await heed.until('the finding recorded', async () => {
    const status = await owner.api.console.model.status.query();
    return status.models.find((m) => m.model === 'gemma:2b')?.flags.some((f) => f.flag === 'no-tools') && status;
  });
  const gemma = after.models.find((m) => m.model === 'gemma:2b')!;
  expect(gemma.usedBy).toEqual(['Test site']);
  expect(gemma.flags.find((f) => f.flag === 'no-tools')).toMatchObject({
    source: 'learned',
    parameter: 'tools',
    featuresOff: true,
    providerMessage: 'registry.ollama.ai/library/gemma:2b does not support tools',
    consequence: expect.stringContaining("the widget's button"),
  });
  // the deployment's model is not touched by what another model refused
  expect(after.models.find((m) => m.model === 'test-model')!.flags.map((f) => f.flag)).toEqual(['no-stream-options']);

  // an agent sees the site's model only when they work on that site
  const elsewhere = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [] });
  const theirs = await elsewhere.api.console.model.status.query();
  expect(theirs.models.find((m) => m.model === 'gemma:2b')?.usedBy ?? []).toEqual([]);
});

test('a finding learned again by a restarted process keeps its first date and moves its last seen', async () => {
  const { db } = heed.services;
  const row = { baseUrl: heed.services.capabilities.baseUrl, model: 'old-model', flag: 'max-completion-tokens' };
  await recordFinding(db, { ...row, flag: 'max-completion-tokens', providerMessage: "Unsupported parameter: 'max_tokens'" });
  const first = await db.modelFinding.findUniqueOrThrow({ where: { baseUrl_model_flag: row } });
  await heed.until('the clock to move', () => Date.now() > first.seenAt.getTime() + 5);
  await recordFinding(db, { ...row, flag: 'max-completion-tokens', providerMessage: null });
  const again = await db.modelFinding.findUniqueOrThrow({ where: { baseUrl_model_flag: row } });
  expect(again.learnedAt).toEqual(first.learnedAt);
  expect(again.seenAt.getTime()).toBeGreaterThan(first.seenAt.getTime());
  expect(again.providerMessage).toBe("Unsupported parameter: 'max_tokens'");
});
