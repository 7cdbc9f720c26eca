import { type ListCursor, decodeCursor } from '../conversations/cursor.ts';
import type { ConversationItem } from '../conversations/item.ts';
import type { ListFilter } from '../conversations/list-filter.ts';
import { listConversationItems } from '../conversations/list-query.ts';
import type { Staff } from '../../operators/operator-sessions.ts';
import type { Services } from '../../services.ts';
import { csvRow } from './csv.ts';
import { type PageRating, pageRatings } from './page-ratings.ts';
import { ratingText } from './people-csv.ts';

/** Rows fetched per query: the list's own page limit, so the export reads exactly what the list reads. */
export const EXPORT_PAGE_SIZE = 100;

const HEADER = [
  'id',
  'site',
  'title',
  'title_source',
  'state',
  'failed',
  'visitor_id',
  'visitor_external_id',
  'visitor_name',
  'messages',
  'created_at',
  'updated_at',
  'last_reply_at',
  'excerpt',
  'waiting_since',
  'held_by',
  'private',
  'status',
  'assignee',
  'rating',
  'rating_comment',
  'rated_at',
];

const record = (c: ConversationItem, rated: PageRating | undefined) =>
  csvRow([
    c.id,
    c.siteName,
    c.title,
    c.titleSource,
    c.attention,
    c.failed,
    c.visitor.id,
    c.visitor.externalId,
    c.visitor.name,
    c.messageCount,
    c.createdAt,
    c.updatedAt,
    c.lastAssistantAt,
    c.excerpt,
    c.waitingSince,
    c.heldBy?.name,
    c.private,
    c.status,
    c.assignee?.name,
    ratingText(rated?.rating),
    // a private conversation's comment is withheld by the read (page-ratings.ts)
    rated?.comment,
    rated?.ratedAt,
  ]);

/**
 * The conversation list as CSV, one chunk per keyset page (header first): memory stays at one
 * page however many conversations match, and a consumer that stops reading (a client that
 * went away) stops the queries too. It pages through the console list's own query
 * (`listConversationItems`), so filters, search, this operator's unread state and the order
 * are the list's, by construction: only the operator's sites, and a private conversation's
 * row carries no words (its title, excerpt and rating comment cells are empty, its words never
 * match a search). Each page's ratings are one more read by the page's ids (`pageRatings`).
 * @example for await (const chunk of conversationsCsv(services, { staff, filter: 'failed' })) res.write(chunk);
 */
export async function* conversationsCsv(
  services: Services,
  query: { staff: Staff; siteId?: string; filter: ListFilter; search?: string },
): AsyncGenerator<string> {
  yield csvRow(HEADER);
  const { staff, ...rest } = query;
  let cursor: ListCursor | undefined;
  for (;;) {
    const page = await listConversationItems(services.db, {
      ...rest,
      operatorId: staff.operatorId,
      sites: staff.sites,
      cursor,
      limit: EXPORT_PAGE_SIZE,
    });
    if (page.items.length > 0) {
      const ratings = await pageRatings(
        services.db,
        page.items.map((c) => c.id),
      );
      yield page.items.map((c) => record(c, ratings.get(c.id))).join('');
    }
    // the list's cursor is text for clients; decoding our own just-made one cannot fail
    cursor = page.nextCursor ? (decodeCursor(page.nextCursor) ?? undefined) : undefined;
    if (!cursor) return;
  }
}
