import { afterAll, beforeAll, expect, test } from 'vitest';
import { KNOWLEDGE_HEADING, KNOWLEDGE_MISS } from '../../api/src/chat/context/context-sections.ts';
import { retrieveKnowledge } from '../../api/src/knowledge/retrieve.ts';
import { promptMessages } from '../support/conversation-text.ts';
import { signedInOperator } from '../support/console.ts';
import { TestHeed } from '../support/harness.ts';
import { textPdf } from '../support/text-pdf.ts';

/**
 * The owner's own knowledge beside crawled pages: uploaded files (read once, cited by name,
 * never linked), snippets (their answer ranked first), the questions nothing answered (counted
 * for the console, the model told to say it does not know), and each run's excerpts in the
 * console's transcript.
 */
let heed: TestHeed;
let siteId: string;
let owner: Awaited<ReturnType<typeof signedInOperator>>;
const MAX_FILE = 200_000;
const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

beforeAll(async () => {
  heed = await TestHeed.start({ site: true, env: { KNOWLEDGE_MAX_FILE_BYTES: String(MAX_FILE) } });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  siteId = (await heed.services.db.site.findFirstOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
});
afterAll(async () => {
  await heed?.stop();
});

/** A visitor's question and the reply the model is scripted to give; the model's request and the stored reply. */
async function ask(question: string, reply: string, opts: { private?: boolean } = {}) {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  if (opts.private) await heed.services.db.conversation.update({ where: { id: conversationId }, data: { private: true } });
  const events = visitor.subscribe();
  const before = heed.model.requests.length;
  heed.model.script({ text: reply });
  await visitor.send(conversationId, question);
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  events.close();
  const request = heed.model.requests.slice(before).find((r) => !JSON.stringify(r.body).includes('"title"')) ?? heed.model.requests.at(-1)!;
  const system = promptMessages(request)
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
  return { conversationId, system, sources: done.type === 'reply.completed' ? done.message.sources : null };
}

test('an uploaded Markdown file and PDF answer questions; a reply cites a file by name, with nothing to link to', async () => {
  const md =
    '# Warranty\n\nEvery tent has a **five-year** warranty against seam failure.\n\n## Claims\n\nSend a photo of the seam to claims@trailhead.example.';
  const { excerpts } = await owner.api.console.knowledge.upload.mutate({ siteId, name: 'warranty.md', contentBase64: base64(md) });
  expect(excerpts).toBe(2);
  const pdf = textPdf([['Rentals'], ['Canoes rent for 450 NOK a day from the Oslo store.']]);
  await owner.api.console.knowledge.upload.mutate({ siteId, name: 'rentals.pdf', contentBase64: base64(pdf) });
  const files = (await owner.api.console.knowledge.sources.query({ siteId })).filter((s) => s.kind === 'file');
  expect(files.map((f) => [f.name, f.bytes, f.pages])).toEqual([
    ['warranty.md', md.length, 1],
    ['rentals.pdf', pdf.byteLength, 1],
  ]);

  const warranty = await ask('How long is the tent warranty?', 'Five years against seam failure [1].');
  expect(warranty.system).toContain(`## ${KNOWLEDGE_HEADING}`);
  expect(warranty.system).toContain('[1] Warranty (the site owner’s own text)');
  expect(warranty.system).toContain('"Every tent has a five-year warranty against seam failure."');
  expect(warranty.sources).toEqual([{ n: 1, title: 'Warranty', url: null }]);

  const canoe = await ask('What does a canoe cost to rent per day?', '450 NOK a day [1].');
  expect(canoe.system).toContain('Canoes rent for 450 NOK a day from the Oslo store.');
  expect(canoe.sources).toEqual([{ n: 1, title: 'rentals', url: null }]);
});

test('a file larger than any message is uploaded whole: the upload alone may carry that much', async () => {
  const section = (n: number) => `## Part ${n}\n\n${'Tents are checked for seam failure before each season. '.repeat(30)}\n\n`;
  const md = `# Tent care\n\n${Array.from({ length: 80 }, (_, n) => section(n)).join('')}`;
  expect(md.length).toBeGreaterThan(100_000);
  const { excerpts } = await owner.api.console.knowledge.upload.mutate({ siteId, name: 'tent-care.md', contentBase64: base64(md) });
  expect(excerpts).toBe(160);
});

test('a file of another kind, too large, or without text is refused with why, and nothing else changes', async () => {
  const before = await owner.api.console.knowledge.sources.query({ siteId });
  const upload = (name: string, content: Uint8Array | string) =>
    owner.api.console.knowledge.upload.mutate({ siteId, name, contentBase64: base64(content) });
  await expect(upload('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')).rejects.toThrow(
    /a Markdown, text, HTML or PDF file/,
  );
  await expect(upload('manual.pdf', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2]))).rejects.toThrow(/not a PDF and not UTF-8 text/);
  await expect(upload('huge.txt', 'x'.repeat(MAX_FILE + 1))).rejects.toThrow(/larger than/);
  await expect(upload('empty.md', '\n\n')).rejects.toThrow(/no text found/);
  // a body far past what the largest file needs is refused before it is read whole
  await expect(upload('enormous.txt', 'x'.repeat(MAX_FILE * 3))).rejects.toThrow(/too_large/i);
  expect(await owner.api.console.knowledge.sources.query({ siteId })).toEqual(before);
});

test('a snippet wins over other text that matches as well, and an edit changes what the model is told', async () => {
  await owner.api.console.knowledge.upload.mutate({
    siteId,
    name: 'shipping.md',
    contentBase64: base64('# Shipping\n\nWe ship to Norway, Sweden, Denmark and Finland. Shipping to other countries is not offered.'),
  });
  const { id } = await owner.api.console.knowledge.saveSnippet.mutate({
    siteId,
    question: 'Do you ship to Iceland?',
    answer: 'Yes: since December we ship to Iceland for 300 NOK.',
  });
  const found = await retrieveKnowledge(heed.services.sql, siteId, ['Do you ship to Iceland?']);
  expect(found.hits[0]).toMatchObject({ title: 'Do you ship to Iceland?', snippet: true, url: null });
  expect(found.hits.map((h) => h.title)).toContain('Shipping');

  await owner.api.console.knowledge.saveSnippet.mutate({ siteId, id, question: 'Do you ship to Iceland?', answer: 'Iceland: 350 NOK.' });
  const { system } = await ask('Do you ship to Iceland?', 'Yes, for 350 NOK [1].');
  expect(system).toContain('[1] Do you ship to Iceland? (the site owner’s own text)\n"Iceland: 350 NOK."');
  expect(system).not.toContain('300 NOK');
  const listed = (await owner.api.console.knowledge.sources.query({ siteId })).find((s) => s.id === id);
  expect(listed).toMatchObject({ kind: 'snippet', name: 'Do you ship to Iceland?', answer: 'Iceland: 350 NOK.' });
});

test('a question nothing answers: the model is told to say so and offer a person, and the owner sees it counted', async () => {
  await heed.services.db.site.update({ where: { id: siteId }, data: { handoffEnabled: true } });
  const unanswerable = await ask('Can I pay with Bitcoin?', 'I do not know.');
  expect(unanswerable.system).toContain(KNOWLEDGE_MISS);
  expect(unanswerable.system).toContain('handoff_to_human');
  // a greeting matched nothing either, but asks nothing: it is not counted
  await ask('hello there', 'Hello!');
  await ask('Is there a discount for Bitcoin payments?', 'I do not know.', { private: true });

  const listed = await owner.api.console.knowledge.unanswered.query({ siteId });
  expect(listed).toMatchObject({ total: 2, lastWeek: 2 });
  expect(listed.questions.map((q) => q.text)).toEqual([null, 'Can I pay with Bitcoin?']);
  expect(listed.questions[1]!.conversationId).toBe(unanswerable.conversationId);

  await owner.api.console.knowledge.dismissUnanswered.mutate({ id: listed.questions[1]!.id });
  expect((await owner.api.console.knowledge.unanswered.query({ siteId })).total).toBe(1);
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [siteId] });
  await expect(agent.api.console.knowledge.dismissUnanswered.mutate({ id: listed.questions[0]!.id })).rejects.toThrow();
});

test('the transcript lists, for each run, the excerpts the model was shown and which the reply cited', async () => {
  const { conversationId } = await ask('How long is the warranty on a tent, and how do I claim?', 'Five years [1].');
  const transcript = await owner.api.console.conversations.transcript.query({ conversationId });
  const [run] = transcript.runs;
  expect(run!.knowledge.length).toBeGreaterThan(1);
  expect(run!.knowledge[0]).toMatchObject({ n: 1, title: 'Warranty', url: null, cited: true });
  expect(run!.knowledge.slice(1).every((e) => !e.cited)).toBe(true);
});
