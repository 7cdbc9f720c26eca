/**
 * Compile-time only: the server's inferred `console.*` outputs must fit the shapes the views
 * read (`contract.ts`). Nothing here reaches the bundle (type imports only); a server change
 * that would break a view fails `tsc --noEmit` on the line naming the procedure.
 */
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';
import type {
  AlertSettings,
  ApiKeyRow,
  ConversationChange,
  CreatedApiKey,
  ErasureResult,
  IntentRuleView,
  Invitation,
  ConversationPage,
  Me,
  OperatorRow,
  OverviewSeries,
  ModelStatus,
  ProactiveStats,
  SiteDeletion,
  SiteSettings,
  SiteSummary,
  Transcript,
  TranscriptHead,
  TranscriptMessage,
  VisitorErasure,
  VisitorProfile,
} from './contract.ts';

type Out = inferRouterOutputs<AppRouter>['console'];
type Fits<Server extends Console, Console> = [Server, Console];
/** a tracked event's data (the SSE message), as the client receives it */
type Yielded<T> = T extends AsyncIterable<infer U> ? (U extends { data: infer D } ? D : U) : T;

export type ContractChecks = [
  Fits<NonNullable<Out['auth']['me']>, Me>,
  Fits<Out['auth']['signIn'], { operator: Me }>,
  Fits<Out['auth']['acceptInvite'], { operator: Me }>,
  Fits<Out['operators']['list'][number], OperatorRow>,
  Fits<Out['operators']['invite'], Invitation>,
  Fits<Out['operators']['setSites'], OperatorRow>,
  Fits<Out['sites']['list'][number], SiteSummary>,
  Fits<Out['sites']['get'], SiteSettings>,
  Fits<Out['sites']['create'], SiteSettings>,
  Fits<Out['sites']['update'], SiteSettings>,
  Fits<Out['sites']['deletion'], SiteDeletion>,
  Fits<Out['sites']['delete'], { deleted: SiteDeletion }>,
  Fits<Out['sites']['rotateIdentitySecret'], { secret: string }>,
  Fits<Out['conversations']['list'], ConversationPage>,
  Fits<Yielded<Out['conversations']['changes']>, ConversationChange>,
  Fits<Out['conversations']['transcript'], Transcript>,
  Fits<Out['overview']['series'], OverviewSeries>,
  Fits<Out['conversations']['takeOver'], TranscriptHead>,
  Fits<Out['conversations']['reply'], TranscriptMessage>,
  Fits<Out['conversations']['handBack'], TranscriptHead>,
  Fits<Out['proactive']['intentRules']['list'][number], IntentRuleView>,
  Fits<Out['proactive']['intentRules']['save'], IntentRuleView>,
  Fits<Out['proactive']['apiKeys']['list'][number], ApiKeyRow>,
  Fits<Out['proactive']['apiKeys']['create'], CreatedApiKey>,
  Fits<Out['proactive']['stats'], ProactiveStats>,
  Fits<Out['model']['status'], ModelStatus>,
  Fits<Out['visitors']['profile'], VisitorProfile>,
  Fits<Out['visitors']['erasure'], VisitorErasure>,
  Fits<Out['visitors']['erase'], ErasureResult>,
  Fits<Out['profile']['alerts'], AlertSettings>,
  Fits<Out['profile']['setAlerts'], AlertSettings>,
];
