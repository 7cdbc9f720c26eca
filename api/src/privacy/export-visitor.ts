import type { Db, Prisma } from '../db/client.ts';
import { signingKeys } from '../auth/signing-keys.ts';
import { SIGNED_LINK_TTL_MS, signedFileUrl } from '../attachments/signed-link.ts';
import type { Config } from '../config.ts';
import type { ErasureSubject } from './subject-hash.ts';

/** The version of the document's shape (docs/api/visitor-data.md): bumped when a field changes meaning or goes. */
export const VISITOR_DATA_VERSION = 1;

const messageSelect = {
  id: true,
  role: true,
  content: true,
  createdAt: true,
  provenanceLabel: true,
  operator: { select: { name: true } },
  attachments: { select: { id: true, name: true, mime: true, bytes: true }, orderBy: { position: 'asc' } },
} satisfies Prisma.MessageSelect;

const conversationSelect = {
  id: true,
  title: true,
  createdAt: true,
  updatedAt: true,
  private: true,
  status: true,
  resolvedAt: true,
  rating: true,
  ratingComment: true,
  ratedAt: true,
  messages: { select: messageSelect, orderBy: { seq: 'asc' } },
  inputRequests: {
    select: { question: true, choices: true, status: true, createdAt: true, closedAt: true },
    orderBy: { createdAt: 'asc' },
  },
  todos: { select: { text: true, status: true, createdAt: true, completedAt: true }, orderBy: { createdAt: 'asc' } },
  notes: { select: { authorName: true, content: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
  attachments: { where: { messageId: null }, select: { id: true, name: true, mime: true, bytes: true } },
} satisfies Prisma.ConversationSelect;

const visitorSelect = {
  id: true,
  createdAt: true,
  lastSeenAt: true,
  timeZone: true,
  language: true,
  userAgent: true,
  referrer: true,
  pageUrl: true,
  pageTitle: true,
  externalId: true,
  name: true,
  email: true,
  attributes: true,
  identifiedAt: true,
  contactEmail: true,
  contactPageUrl: true,
  emailOptOutAt: true,
  conversations: { select: conversationSelect, orderBy: { createdAt: 'asc' } },
  proactive: { select: { kind: true, name: true, data: true, text: true, status: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
} satisfies Prisma.VisitorSelect;

type VisitorRow = Prisma.VisitorGetPayload<{ select: typeof visitorSelect }>;

/** A file as the export hands it out: what it is, and a link that works until `linksExpireAt`. */
export interface ExportedFile {
  name: string;
  mime: string;
  bytes: number;
  url: string;
}

/** The whole document (docs/api/visitor-data.md says what each field means). */
export interface VisitorDataExport {
  format: 'heed.visitor-data';
  version: typeof VISITOR_DATA_VERSION;
  exportedAt: string;
  site: { key: string; name: string };
  subject: ErasureSubject;
  linksExpireAt: string;
  visitors: ReturnType<typeof exportedVisitor>[];
}

/**
 * Everything Heed holds about one visitor of a site (for a verified user id, every visitor —
 * browser — the user was identified in), as one JSON-ready document: their identity and what
 * the host signed about them, the pages and browser they were seen with, their contact address
 * and email choices, every conversation with its messages, files (as links valid for a day),
 * questions, todos and the team's notes, the unsolicited messages their pages asked for, and
 * the emails sent to them. Null when the site has no such visitor.
 * @example const doc = await exportVisitorData(db, config, { siteId, subject: { kind: 'user', userId: 'u-42' }, baseUrl });
 */
export async function exportVisitorData(
  db: Db,
  config: Pick<Config, 'HEED_SECRET' | 'HEED_SECRET_PREVIOUS'>,
  q: { siteId: string; subject: ErasureSubject; baseUrl: string; now?: Date },
): Promise<VisitorDataExport | null> {
  const where =
    q.subject.kind === 'user' ? { siteId: q.siteId, externalId: q.subject.userId } : { siteId: q.siteId, id: q.subject.visitorId };
  const [site, visitors] = await Promise.all([
    db.site.findUnique({ where: { id: q.siteId }, select: { key: true, name: true } }),
    db.visitor.findMany({ where, select: visitorSelect, orderBy: { createdAt: 'asc' } }),
  ]);
  if (!site || visitors.length === 0) return null;
  const now = q.now ?? new Date();
  const expires = new Date(now.getTime() + SIGNED_LINK_TTL_MS);
  const keys = signingKeys(config);
  const file = (a: { id: string; name: string; mime: string; bytes: number }): ExportedFile => ({
    name: a.name,
    mime: a.mime,
    bytes: a.bytes,
    url: new URL(signedFileUrl(keys, a.id, expires), q.baseUrl).href,
  });
  const emails = await db.emailOutbox.findMany({
    where: {
      OR: [
        { visitorId: { in: visitors.map((v) => v.id) } },
        { conversationId: { in: visitors.flatMap((v) => v.conversations.map((c) => c.id)) } },
      ],
    },
    select: { kind: true, recipient: true, status: true, createdAt: true, sentAt: true, visitorId: true, conversationId: true },
    orderBy: { createdAt: 'asc' },
  });
  return {
    format: 'heed.visitor-data',
    version: VISITOR_DATA_VERSION,
    exportedAt: now.toISOString(),
    site: { key: site.key, name: site.name },
    subject: q.subject,
    linksExpireAt: expires.toISOString(),
    visitors: visitors.map((v) =>
      exportedVisitor(
        v,
        file,
        emails.filter(
          (e) => e.kind === 'visitor_reply' && (e.visitorId === v.id || v.conversations.some((c) => c.id === e.conversationId)),
        ),
      ),
    ),
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function exportedVisitor(
  v: VisitorRow,
  file: (a: { id: string; name: string; mime: string; bytes: number }) => ExportedFile,
  emails: { kind: string; recipient: string; status: string; createdAt: Date; sentAt: Date | null }[],
) {
  return {
    visitorId: v.id,
    firstSeenAt: v.createdAt.toISOString(),
    lastSeenAt: v.lastSeenAt.toISOString(),
    timeZone: v.timeZone,
    language: v.language,
    browser: v.userAgent,
    referrer: v.referrer,
    lastPage: v.pageUrl ? { url: v.pageUrl, title: v.pageTitle } : null,
    identity: v.identifiedAt
      ? { userId: v.externalId, name: v.name, email: v.email, attributes: v.attributes ?? null, identifiedAt: iso(v.identifiedAt) }
      : null,
    contact: v.contactEmail ? { email: v.contactEmail, pageUrl: v.contactPageUrl } : null,
    consent: { replyEmails: !!v.contactEmail && !v.emailOptOutAt, emailOptOutAt: iso(v.emailOptOutAt) },
    conversations: v.conversations.map((c) => ({
      conversationId: c.id,
      title: c.title,
      startedAt: c.createdAt.toISOString(),
      lastActivityAt: c.updatedAt.toISOString(),
      private: c.private,
      status: c.status,
      resolvedAt: iso(c.resolvedAt),
      rating: c.rating === null ? null : { helpful: c.rating > 0, comment: c.ratingComment, ratedAt: iso(c.ratedAt) },
      messages: c.messages.map((m) => ({
        messageId: m.id,
        from: m.role === 'user' ? 'visitor' : m.role === 'operator' ? 'team' : m.role,
        authorName: m.operator?.name ?? null,
        text: m.content,
        sentAt: m.createdAt.toISOString(),
        label: m.provenanceLabel,
        files: m.attachments.map(file),
      })),
      unsentFiles: c.attachments.map(file),
      questions: c.inputRequests.map((r) => ({
        question: r.question,
        choices: r.choices,
        status: r.status,
        askedAt: iso(r.createdAt),
        closedAt: iso(r.closedAt),
      })),
      todos: c.todos.map((t) => ({ text: t.text, status: t.status, addedAt: iso(t.createdAt), completedAt: iso(t.completedAt) })),
      teamNotes: c.notes.map((n) => ({ authorName: n.authorName, text: n.content, writtenAt: iso(n.createdAt) })),
    })),
    pageRequests: v.proactive.map((p) => ({
      kind: p.kind,
      name: p.name,
      data: p.data ?? null,
      text: p.text,
      status: p.status,
      at: iso(p.createdAt),
    })),
    emails: emails.map((e) => ({ kind: e.kind, to: e.recipient, status: e.status, queuedAt: iso(e.createdAt), sentAt: iso(e.sentAt) })),
  };
}
