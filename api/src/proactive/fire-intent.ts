import type { Services } from '../services.ts';
import type { Prisma } from '../db/client.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { checkBudget } from './budget.ts';
import { intentData } from './intent-data.ts';
import { INTENT_NAME } from './intent-rules.ts';
import { countRefusal, type RefusalReason } from './refusals.ts';
import { latestConversation, lockVisitor, openConversation } from './target-conversation.ts';

/** What the host page learns: never why an intent was ignored (that is the site's business, in the console). */
export type FireResult = { status: 'queued' | 'ignored' };

/** What `intent.fire` receives: anything (the page is not trusted), checked here. */
export interface FireInput {
  name?: unknown;
  data?: unknown;
}

/**
 * `Heed('intent', name, data?)`: decides whether an unsolicited message is queued for the
 * visitor. Checked in order: the name (`bad_name`), the data (`bad_data`), the site's rule
 * (`unknown_intent`, `rule_disabled`), then, under the visitor's row lock (so two fires at once
 * cannot both pass), the budget for their most recently active conversation (one is opened when
 * they have none: `conversation_limit` at their cap). Accepted → a pending ProactiveRequest the
 * workers pick up at once. Anything else is ignored and counted for the console, never an error.
 */
export async function fireIntent(s: Services, visitor: { visitorId: string; siteId: string }, input: FireInput): Promise<FireResult> {
  const decided = await decide(s, visitor, input);
  if (typeof decided === 'string') {
    await countRefusal(s.db, visitor.siteId, decided);
    return { status: 'ignored' };
  }
  await s.redis.publish(s.keys.scheduleChannel(), decided.conversationId).catch(() => undefined);
  return { status: 'queued' };
}

async function decide(
  s: Services,
  visitor: { visitorId: string; siteId: string },
  input: FireInput,
): Promise<RefusalReason | { conversationId: string }> {
  const name = input.name;
  if (typeof name !== 'string' || !INTENT_NAME.test(name)) return 'bad_name';
  const data = intentData(input.data);
  if (!data.ok) return 'bad_data';
  const rule = await s.db.intentRule.findUnique({
    where: { siteId_name: { siteId: visitor.siteId, name } },
    select: { enabled: true, fixedMessage: true },
  });
  if (!rule) return 'unknown_intent';
  if (!rule.enabled) return 'rule_disabled';
  const site = await s.db.site.findUniqueOrThrow({ where: { id: visitor.siteId }, select: { unsolicitedPerDay: true } });

  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    await lockVisitor(tx, visitor.visitorId);
    const latest = await latestConversation(tx, visitor.visitorId);
    const refusal = await checkBudget(tx, { visitorId: visitor.visitorId, conversationId: latest, perDay: site.unsolicitedPerDay });
    if (refusal) return refusal;
    const conversationId =
      latest ?? (await openConversation(tx, emit, { ...visitor, maxConversations: s.config.VISITOR_MAX_CONVERSATIONS }));
    if (!conversationId) return 'conversation_limit';
    await tx.proactiveRequest.create({
      data: {
        siteId: visitor.siteId,
        visitorId: visitor.visitorId,
        conversationId,
        kind: 'intent',
        name,
        data: data.data === null ? undefined : (data.data as Prisma.InputJsonValue),
        text: rule.fixedMessage,
      },
      select: { id: true },
    });
    return { conversationId };
  });
}
