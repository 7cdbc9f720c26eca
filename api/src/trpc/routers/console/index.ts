import { router } from '../../trpc.ts';
import { authRouter } from './auth.ts';
import { conversationsRouter } from './conversations.ts';
import { operatorsRouter } from './operators.ts';
import { modelRouter } from './model.ts';
import { overviewRouter } from './overview.ts';
import { sitesRouter } from './sites.ts';
import { knowledgeRouter } from './knowledge.ts';
import { proactiveRouter } from './proactive.ts';
import { profileRouter } from './profile.ts';
import { cannedRepliesRouter } from './canned-replies.ts';
import { visitorsRouter } from './visitors.ts';

/**
 * The console's API (/admin), signed in with an operator session cookie. One router per
 * resource; owner-only procedures use `ownerProcedure`.
 */
export const consoleRouter = router({
  auth: authRouter,
  profile: profileRouter,
  sites: sitesRouter,
  knowledge: knowledgeRouter,
  operators: operatorsRouter,
  conversations: conversationsRouter,
  cannedReplies: cannedRepliesRouter,
  overview: overviewRouter,
  model: modelRouter,
  proactive: proactiveRouter,
  visitors: visitorsRouter,
});
