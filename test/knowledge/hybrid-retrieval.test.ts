import { afterAll, beforeAll, expect, test } from 'vitest';
import { embedDue } from '../../api/src/knowledge/embed-pending.ts';
import { retrieveKnowledge } from '../../api/src/knowledge/retrieve.ts';
import { addKnowledgeFile } from '../../api/src/knowledge/text-sources.ts';
import { closedPort } from '../support/closed-port.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * Retrieval by meaning as well as words, with an embeddings model (the local model server's
 * deterministic `/v1/embeddings`): excerpts are embedded when written, a question worded
 * unlike the page still finds it, another site's vectors never answer, and an embeddings
 * server that is down leaves retrieval by words working.
 */
let heed: TestHeed;
let shop: string;
let other: string;
const site = async (key: string) => (await heed.services.db.site.create({ data: { key, name: key }, select: { id: true } })).id;
const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

beforeAll(async () => {
  // the local embeddings are word hashes: related texts score lower than a real model's
  heed = await TestHeed.start({ env: { EMBEDDINGS_MODEL: 'heed-local-embeddings', EMBEDDINGS_MIN_SIMILARITY: '0.15' } });
  shop = await site('hybrid-shop');
  other = await site('hybrid-other');
  await addKnowledgeFile(heed.services, shop, file('delivery.md', '# Delivery\n\nOrders are shipped within one working day from Oslo.'));
  await addKnowledgeFile(heed.services, shop, file('payment.md', '# Payment\n\nWe accept Visa, Mastercard and Vipps.'));
  await addKnowledgeFile(heed.services, other, file('delivery.md', '# Delivery\n\nOrders are shipped within ten days.'));
});
afterAll(async () => {
  await heed?.stop();
});

test('every excerpt is embedded when it is written, through the embeddings model', async () => {
  const excerpts = await heed.services.db.knowledgeExcerpt.findMany({ select: { embedding: true, embeddedBy: true } });
  expect(excerpts.length).toBe(3);
  // 256 float32 values each
  expect(excerpts.every((e) => e.embedding?.byteLength === 1024 && e.embeddedBy === 'heed-local-embeddings')).toBe(true);
  expect(heed.model.embeddingRequests.flat().some((t) => t.includes('Orders are shipped within one working day'))).toBe(true);
});

test('a question worded unlike the page finds it by meaning, where words alone find nothing; only this site answers', async () => {
  const question = ['How long does shipping take?'];
  expect((await retrieveKnowledge(heed.services.sql, shop, question)).hits).toEqual([]);
  const hybrid = await retrieveKnowledge(heed.services.sql, shop, question, heed.services.knowledge.hybrid);
  expect(hybrid.hits.map((h) => h.text)).toEqual(['Orders are shipped within one working day from Oslo.']);
  const elsewhere = await retrieveKnowledge(heed.services.sql, other, question, heed.services.knowledge.hybrid);
  expect(elsewhere.hits.map((h) => h.text)).toEqual(['Orders are shipped within ten days.']);
  // unrelated words stay unmatched: below the similarity floor, nothing is relevant
  expect(await retrieveKnowledge(heed.services.sql, shop, ['Can I bring my dog?'], heed.services.knowledge.hybrid)).toEqual({
    hits: [],
    searched: true,
  });
});

test('a visitor’s run finds by meaning what the words miss, and the model is shown it', async () => {
  const siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
  await addKnowledgeFile(heed.services, siteId, file('delivery.md', '# Delivery\n\nOrders are shipped within one working day from Oslo.'));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'Within one working day [1].' });
  await visitor.send(conversationId, 'How long does shipping take?');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  events.close();
  expect(JSON.stringify(heed.model.requests.at(-1)!.body.messages)).toContain('Orders are shipped within one working day from Oslo.');
  expect(done.type === 'reply.completed' && done.message.sources).toEqual([{ n: 1, title: 'Delivery', url: null }]);
});

test('a removed file leaves every process’s vectors at the next run; a new one joins them', async () => {
  const hybrid = heed.services.knowledge.hybrid!;
  expect((await retrieveKnowledge(heed.services.sql, shop, ['Which cards do you accept?'], hybrid)).hits[0]?.title).toBe('Payment');
  const payment = await heed.services.db.knowledgeSource.findFirstOrThrow({ where: { siteId: shop, name: 'payment.md' } });
  await heed.services.db.knowledgeSource.delete({ where: { id: payment.id } });
  await heed.services.db.site.update({ where: { id: shop }, data: { knowledgeVersion: { increment: 1 } } });
  expect((await retrieveKnowledge(heed.services.sql, shop, ['Which cards do you accept?'], hybrid)).hits).toEqual([]);
  await addKnowledgeFile(heed.services, shop, file('cards.md', '# Cards\n\nCard payments are accepted in NOK.'));
  expect((await retrieveKnowledge(heed.services.sql, shop, ['Which cards do you accept?'], hybrid)).hits[0]?.title).toBe('Cards');
});

test('after the embeddings model changed, the timer’s pass embeds every excerpt again; until then they are found by their words', async () => {
  const hybrid = heed.services.knowledge.hybrid!;
  await heed.services.db.knowledgeExcerpt.updateMany({ where: { siteId: shop }, data: { embeddedBy: 'an-older-model' } });
  await heed.services.db.site.update({ where: { id: shop }, data: { knowledgeVersion: { increment: 1 } } });
  // another model's vectors are not compared with this one's questions
  expect((await retrieveKnowledge(heed.services.sql, shop, ['How long does shipping take?'], hybrid)).hits).toEqual([]);
  const deps = { sql: heed.services.sql, embedder: hybrid.embedder, logger: heed.services.logger };
  expect(await embedDue(deps)).toBeGreaterThanOrEqual(1);
  expect(await heed.services.db.knowledgeExcerpt.count({ where: { siteId: shop, embeddedBy: 'an-older-model' } })).toBe(0);
  expect((await retrieveKnowledge(heed.services.sql, shop, ['How long does shipping take?'], hybrid)).hits[0]?.title).toBe('Delivery');
  expect(await embedDue(deps)).toBe(0);
});

test('with the embeddings server down, a question is still found by its words and the failure is logged', async () => {
  const down = await TestHeed.start({
    env: { EMBEDDINGS_MODEL: 'heed-local-embeddings', EMBEDDINGS_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` },
  });
  try {
    const id = (await down.services.db.site.create({ data: { key: 'down-shop', name: 'Down' }, select: { id: true } })).id;
    await addKnowledgeFile(down.services, id, file('delivery.md', '# Delivery\n\nOrders are shipped within one working day.'));
    expect(await down.services.db.knowledgeExcerpt.count({ where: { siteId: id, embedding: null } })).toBe(1);
    const found = await retrieveKnowledge(down.services.sql, id, ['When are orders shipped?'], down.services.knowledge.hybrid);
    expect(found.hits.map((h) => h.title)).toEqual(['Delivery']);
    expect(down.logs.some((l) => l.includes('question not embedded'))).toBe(true);
    expect(down.logs.some((l) => l.includes('knowledge excerpts not embedded'))).toBe(true);
    // the excerpt waits to be embedded, and is still found by its words
    expect(await down.services.db.knowledgeExcerpt.count({ where: { siteId: id, embeddedBy: null } })).toBe(1);
  } finally {
    await down.stop();
  }
});
