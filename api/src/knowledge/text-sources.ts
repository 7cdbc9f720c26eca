import type { Db } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import { chunkSections, type Excerpt } from './chunk-sections.ts';
import { embedPending } from './embed-pending.ts';
import { bumpKnowledgeVersion } from './knowledge-version.ts';
import { readKnowledgeFile, UnreadableFile } from './read-file.ts';
import type { KnowledgeWriter } from './sync-source.ts';

/** Bounds of a snippet, as the console's form states them. */
export const SNIPPET_QUESTION_MAX = 300;
export const SNIPPET_ANSWER_MAX = 4000;

/**
 * Adds an uploaded file as a source of the site: its text read (read-file.ts), cut into
 * excerpts, stored as one page without an address (the widget names it, with nothing to link
 * to), then embedded when an embeddings model is set. Throws UnreadableFile when the file holds
 * no text Heed can read.
 * @example await addKnowledgeFile(services, siteId, { name: 'warranty.pdf', bytes }) // { id, pages: 1, excerpts: 3 }
 */
export async function addKnowledgeFile(
  s: KnowledgeWriter,
  siteId: string,
  file: { name: string; bytes: Uint8Array },
): Promise<{ id: string; excerpts: number }> {
  const read = await readKnowledgeFile(file.name, file.bytes);
  const excerpts = chunkSections(read.sections);
  if (excerpts.length === 0) throw new UnreadableFile('no text found in it');
  const id = await writeTextSource(s.db, siteId, {
    kind: 'file',
    name: file.name.slice(0, 300),
    bytes: file.bytes.byteLength,
    title: read.title,
    excerpts,
  });
  await afterWrite(s, siteId);
  return { id, excerpts: excerpts.length };
}

/**
 * Saves a snippet: a question and the owner's answer, kept as one excerpt marked `snippet`
 * (ranked above crawled text that matches as well). With `id` it replaces that snippet's words.
 * @example await saveSnippet(services, siteId, { question: 'Do you ship to Iceland?', answer: 'Not yet.' })
 */
export async function saveSnippet(
  s: KnowledgeWriter,
  siteId: string,
  snippet: { id?: string; question: string; answer: string },
): Promise<{ id: string } | null> {
  const excerpts = chunkSections([{ heading: snippet.question, text: snippet.answer }]);
  const fields = { kind: 'snippet' as const, name: snippet.question, title: snippet.question, excerpts, snippet: true };
  let id: string | null;
  if (snippet.id) {
    id = await s.db.$transaction(async (tx) => {
      const found = await tx.knowledgeSource.updateMany({
        where: { id: snippet.id, siteId, kind: 'snippet' },
        data: { name: snippet.question },
      });
      if (found.count === 0) return null;
      await tx.knowledgePage.deleteMany({ where: { sourceId: snippet.id } });
      await writePage(tx, siteId, snippet.id!, fields);
      return snippet.id!;
    });
  } else id = await writeTextSource(s.db, siteId, fields);
  if (id) await afterWrite(s, siteId);
  return id ? { id } : null;
}

interface TextSource {
  kind: 'file' | 'snippet';
  name: string;
  bytes?: number;
  title: string;
  excerpts: Excerpt[];
  snippet?: boolean;
}

async function writeTextSource(db: Db, siteId: string, t: TextSource): Promise<string> {
  return db.$transaction(async (tx) => {
    const source = await tx.knowledgeSource.create({
      data: { siteId, kind: t.kind, name: t.name, bytes: t.bytes ?? null, nextSyncAt: null, lastSyncAt: new Date() },
      select: { id: true },
    });
    await writePage(tx, siteId, source.id, t);
    return source.id;
  });
}

async function writePage(tx: Tx, siteId: string, sourceId: string, t: TextSource): Promise<void> {
  const page = await tx.knowledgePage.create({ data: { sourceId, siteId, url: null, title: t.title.slice(0, 300) }, select: { id: true } });
  await tx.knowledgeExcerpt.createMany({
    data: t.excerpts.map((e, position) => ({
      pageId: page.id,
      siteId,
      position,
      heading: e.heading.slice(0, 300),
      text: e.text,
      snippet: t.snippet ?? false,
    })),
  });
}

/** Every process reads the site's vectors again; the new excerpts get theirs. */
async function afterWrite(s: KnowledgeWriter, siteId: string): Promise<void> {
  await bumpKnowledgeVersion(s.sql, siteId);
  await embedPending({ sql: s.sql, embedder: s.knowledge.embedder, logger: s.logger }, siteId);
}
