import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../db/client.ts';

/** What `Heed('intent', name)` may name: letters, digits, `_ . -`, 1–64 characters, starting with a letter or digit. */
export const INTENT_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/** Text the console stores: trimmed, no NUL (PostgreSQL text cannot hold it). */
const text = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(max, `at most ${max} characters`)
        .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    );

/**
 * An intent rule as the console saves it: the name the page fires, the label that completes
 * "Because you …", and exactly one of an instruction for the model or a fixed message.
 */
export const intentRuleInput = z
  .strictObject({
    siteId: z.string().uuid(),
    id: z.string().uuid().optional(),
    name: z.string().regex(INTENT_NAME, 'letters, digits, _ . and - only, 1–64 characters, starting with a letter or digit'),
    label: text(80),
    instruction: text(2000).nullable(),
    fixedMessage: text(2000).nullable(),
    enabled: z.boolean(),
  })
  .refine((r) => (r.instruction === null) !== (r.fixedMessage === null), {
    message: 'give exactly one of instruction or fixedMessage',
    path: ['instruction'],
  });
export type IntentRuleInput = z.infer<typeof intentRuleInput>;

const ruleSelect = {
  id: true,
  name: true,
  label: true,
  instruction: true,
  fixedMessage: true,
  enabled: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.IntentRuleSelect;

/** An intent rule as the console shows it. */
export interface IntentRuleView {
  id: string;
  name: string;
  label: string;
  instruction: string | null;
  fixedMessage: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

const toView = (r: Prisma.IntentRuleGetPayload<{ select: typeof ruleSelect }>): IntentRuleView => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** A site's intent rules by name. */
export async function listIntentRules(db: Db, siteId: string): Promise<IntentRuleView[]> {
  const rows = await db.intentRule.findMany({ where: { siteId }, select: ruleSelect, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return rows.map(toView);
}

/** Why a save did not happen. */
export type SaveRefusal = 'not_found' | 'name_taken';

/** Creates a rule (no `id`) or changes one of this site's; a name is unique per site. */
export async function saveIntentRule(db: Db, input: IntentRuleInput): Promise<IntentRuleView | SaveRefusal> {
  const { siteId, id, ...fields } = input;
  try {
    if (!id) {
      if ((await db.site.count({ where: { id: siteId } })) === 0) return 'not_found';
      return toView(await db.intentRule.create({ data: { siteId, ...fields }, select: ruleSelect }));
    }
    const n = await db.intentRule.updateMany({ where: { id, siteId }, data: fields });
    if (n.count === 0) return 'not_found';
    return toView(await db.intentRule.findUniqueOrThrow({ where: { id }, select: ruleSelect }));
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') return 'name_taken';
    throw err;
  }
}

/** Deletes one of this site's rules; false when there was none. Requests already queued for it are refused at claim (`unknown_intent`). */
export async function removeIntentRule(db: Db, siteId: string, id: string): Promise<boolean> {
  return (await db.intentRule.deleteMany({ where: { id, siteId } })).count === 1;
}
