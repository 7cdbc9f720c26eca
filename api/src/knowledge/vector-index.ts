import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { bytesVector } from './embeddings.ts';

/** An excerpt the vectors found, with its cosine similarity to the question. */
export interface VectorHit {
  excerptId: string;
  similarity: number;
}

interface SiteVectors {
  version: number;
  ids: string[];
  dims: number;
  /** every excerpt's unit vector, one after another */
  data: Float32Array;
}

/**
 * A site's excerpt vectors, held in this process and scanned whole for the nearest ones.
 * Neither PostgreSQL Heed runs on here has pgvector, so the vectors live in
 * `KnowledgeExcerpt.embedding` as float32 bytes and are compared in memory: 20 ms for 100,000
 * excerpts of 256 dimensions, about 100 times faster than the same dot products in SQL
 * (docs/architecture/decisions/knowledge-vectors.md). Sites are kept most recently used first
 * within `maxBytes`; a site's vectors are read again when its `knowledgeVersion` moved, so an
 * excerpt added or removed is seen by the next run after its write. A site whose vectors alone
 * exceed `maxBytes` is not kept: its runs search by text only.
 * @example const hits = await index.nearest(siteId, version, queryVector, 20)
 */
export class VectorIndex {
  private readonly sites = new Map<string, SiteVectors>();
  private readonly loading = new Map<string, Promise<SiteVectors | null>>();
  private held = 0;

  constructor(
    private readonly sql: RawSql,
    private readonly maxBytes: number,
    /** the deployment's embeddings model: another model's vectors are not comparable */
    private readonly model: string,
  ) {}

  /** The `limit` excerpts of the site nearest the question, most similar first; none when its vectors are not kept. */
  async nearest(siteId: string, version: number, query: Float32Array, limit: number): Promise<VectorHit[]> {
    const site = await this.vectorsOf(siteId, version);
    if (!site || site.dims !== query.length) return [];
    return topSimilar(site, query, limit);
  }

  private async vectorsOf(siteId: string, version: number): Promise<SiteVectors | null> {
    const kept = this.sites.get(siteId);
    if (kept && kept.version >= version) {
      // most recently used last: the first entry is the next to go
      this.sites.delete(siteId);
      this.sites.set(siteId, kept);
      return kept;
    }
    const key = `${siteId}:${version}`;
    let load = this.loading.get(key);
    if (!load) {
      load = this.load(siteId, version).finally(() => this.loading.delete(key));
      this.loading.set(key, load);
    }
    return load;
  }

  private async load(siteId: string, version: number): Promise<SiteVectors | null> {
    const rows = await this.sql.rows<{ id: string; embedding: Uint8Array }>(Prisma.sql`
      SELECT id, embedding FROM "KnowledgeExcerpt" WHERE "siteId" = ${siteId}::uuid AND "embeddedBy" = ${this.model}`);
    this.drop(siteId);
    const dims = rows[0] ? rows[0].embedding.byteLength >> 2 : 0;
    const bytes = rows.length * dims * 4;
    if (rows.length === 0 || bytes > this.maxBytes) return null;
    const data = new Float32Array(rows.length * dims);
    const ids: string[] = [];
    for (const row of rows) {
      // a vector of another length (a model changed mid-way) is skipped until it is embedded again
      if (row.embedding.byteLength !== dims * 4) continue;
      data.set(bytesVector(row.embedding), ids.length * dims);
      ids.push(row.id);
    }
    const site = { version, ids, dims, data: ids.length === rows.length ? data : data.slice(0, ids.length * dims) };
    while (this.held + site.data.byteLength > this.maxBytes && this.sites.size > 0) this.drop(this.sites.keys().next().value!);
    this.sites.set(siteId, site);
    this.held += site.data.byteLength;
    return site;
  }

  private drop(siteId: string): void {
    const site = this.sites.get(siteId);
    if (!site) return;
    this.held -= site.data.byteLength;
    this.sites.delete(siteId);
  }
}

/** The `limit` most similar vectors (dot products of unit vectors), by a bounded insertion list. */
function topSimilar(site: SiteVectors, query: Float32Array, limit: number): VectorHit[] {
  const { data, dims, ids } = site;
  const best: VectorHit[] = [];
  for (let row = 0; row < ids.length; row++) {
    let dot = 0;
    const at = row * dims;
    for (let i = 0; i < dims; i++) dot += data[at + i]! * query[i]!;
    if (best.length === limit && dot <= best[limit - 1]!.similarity) continue;
    let i = best.length === limit ? limit - 1 : best.length;
    while (i > 0 && best[i - 1]!.similarity < dot) i--;
    best.splice(i, 0, { excerptId: ids[row]!, similarity: dot });
    if (best.length > limit) best.pop();
  }
  return best;
}
