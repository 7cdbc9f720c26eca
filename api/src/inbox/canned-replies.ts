import { z } from 'zod';
import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';
import { refuse } from '../errors/refusal.ts';
import { MESSAGE_MAX, noNul, uuid } from '../inputs/fields.ts';

/** Most canned replies one site keeps: a team's saved answers, not a knowledge base. */
export const CANNED_MAX_PER_SITE = 200;

/** What typing `/` and this finds in the reply box: `refund-policy`. */
export const cannedShortcut = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, '1–40 lower-case letters, digits and -, starting with a letter or digit');

export const cannedInput = z.strictObject({
  siteId: uuid,
  /** the reply to change; absent: a new one */
  id: uuid.optional(),
  shortcut: cannedShortcut,
  content: z
    .string()
    .max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`)
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .refine(noNul, 'must not contain NUL characters'),
});

export interface CannedReplyView {
  id: string;
  shortcut: string;
  content: string;
  updatedAt: string;
}

const SELECT = { id: true, shortcut: true, content: true, updatedAt: true } as const satisfies Prisma.CannedReplySelect;
const toView = (r: Prisma.CannedReplyGetPayload<{ select: typeof SELECT }>): CannedReplyView => ({
  ...r,
  updatedAt: r.updatedAt.toISOString(),
});

/** A site's canned replies by shortcut (the caller checked the site is in scope). */
export async function cannedRepliesOf(db: DbLike, siteId: string): Promise<CannedReplyView[]> {
  const rows = await db.cannedReply.findMany({ where: { siteId }, orderBy: { shortcut: 'asc' }, select: SELECT });
  return rows.map(toView);
}

/**
 * Creates or changes a canned reply. CONFLICT `shortcut_taken` when another reply of the site
 * has that shortcut; NOT_FOUND when `id` is not one of the site's; CONFLICT `too_many` past
 * CANNED_MAX_PER_SITE.
 */
export async function saveCannedReply(db: DbLike, input: z.infer<typeof cannedInput>): Promise<CannedReplyView> {
  const data = { shortcut: input.shortcut, content: input.content, updatedAt: new Date() };
  try {
    if (input.id !== undefined) {
      const { count } = await db.cannedReply.updateMany({ where: { id: input.id, siteId: input.siteId }, data });
      if (count === 0) throw refuse('not_found', 'canned_reply', 'This canned reply does not exist any more.');
      return toView(await db.cannedReply.findUniqueOrThrow({ where: { id: input.id }, select: SELECT }));
    }
    if ((await db.cannedReply.count({ where: { siteId: input.siteId } })) >= CANNED_MAX_PER_SITE) {
      throw refuse('conflict', 'too_many', `A site keeps at most ${CANNED_MAX_PER_SITE} canned replies.`);
    }
    return toView(await db.cannedReply.create({ data: { ...data, siteId: input.siteId }, select: SELECT }));
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw refuse('conflict', 'shortcut_taken', `Another canned reply already uses /${input.shortcut}.`);
    }
    throw err;
  }
}

/** Removes a canned reply of the site; false when there was none. */
export async function removeCannedReply(db: DbLike, q: { siteId: string; id: string }): Promise<boolean> {
  const { count } = await db.cannedReply.deleteMany({ where: { id: q.id, siteId: q.siteId } });
  return count > 0;
}
