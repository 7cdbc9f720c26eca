import { ATTACHMENTS_PER_MESSAGE, isAttachmentKind } from '../../shared/attachment-kinds.ts';
import { readGreetings } from '../../shared/greetings.ts';
import { z } from 'zod';
import { signingKeys } from '../../auth/signing-keys.ts';
import { signVisitorToken, verifyVisitorToken } from '../../auth/visitor-token.ts';
import type { Config } from '../../config.ts';
import { identityInput, verifyIdentity } from '../../identity/verify-identity.ts';
import { sessionVisitor, type SessionVisitor } from '../../identity/visitor-session.ts';
import type { SitePolicy } from '../../sites/site-policy.ts';
import { limitSessionStart } from '../../limits/guards.ts';
import { refuse } from '../../errors/refusal.ts';
import { assertOriginAllowed, type Context, publicProcedure, router, visitorProcedure } from '../trpc.ts';
import { noNul, siteKey, timeZone, visitorToken } from '../../inputs/fields.ts';
import { contactEmail, contactPage, setContactEmail } from '../../email/contact-email.ts';
import { resumeVisitor } from '../../email/resume-session.ts';
import { language, referrer, userAgentOf } from '../../visitors/page-fields.ts';

export const sessionRouter = router({
  /**
   * Starts a visitor session for a site, or resumes the one the token names; with an
   * `identity` (a host-signed JWT or userHash), the session is the verified user's, on any
   * browser. A token for another site, an expired or a forged one starts a fresh visitor
   * instead of failing, so a widget with stale storage always recovers. Refused: an origin
   * the site does not list (403 `origin_not_allowed`), an anonymous session on a site that
   * requires identity (401 `identity_required`), a wrong, expired or forged identity (401
   * `identity_invalid` / `identity_expired`).
   * `referrer` (the page on another site that sent the visitor) and `language` go to the
   * console's visitor profile with the request's User-Agent; odd ones are dropped, never refused.
   */
  start: publicProcedure
    .input(
      z.strictObject({
        siteKey,
        visitorToken: visitorToken.optional(),
        timeZone: timeZone.optional(),
        identity: identityInput.optional(),
        referrer,
        language,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { site, identity } = await openSite(ctx, input.siteKey, input.identity);
      if (!identity && site.requireIdentity)
        throw refuse('unauthorized', 'identity_required', 'This site only talks to signed-in users: identify the user first.');
      const claims = input.visitorToken ? verifyVisitorToken(signingKeys(ctx.services.config), input.visitorToken, { legacy: true }) : null;
      const arrival = { referrer: input.referrer, language: input.language, userAgent: userAgentOf(ctx.req.headers['user-agent']) };
      const visitor = await sessionVisitor(ctx.services.db, { siteId: site.id, claims, identity, timeZone: input.timeZone, arrival });
      return sessionOf(ctx.services.config, site, visitor);
    }),

  /**
   * Identifies the current visitor as a user the host verified. An anonymous visitor's
   * conversations join the user's; the answer carries the user's token, which replaces the
   * current one (the widget then reloads its conversations and event stream).
   */
  identify: visitorProcedure
    .input(z.strictObject({ identity: identityInput, timeZone: timeZone.optional() }))
    .mutation(async ({ ctx, input }) => {
      const site = await ctx.services.sites.byId(ctx.visitor.siteId);
      if (!site) throw refuse('unauthorized', 'visitor_token_invalid', 'The site of this visitor no longer exists.');
      const identity = await verifyIdentity(site.identitySecrets, input.identity);
      const visitor = await sessionVisitor(ctx.services.db, { siteId: site.id, claims: ctx.visitor, identity, timeZone: input.timeZone });
      return sessionOf(ctx.services.config, site, visitor);
    }),

  /**
   * Exchanges the token of a reply email's link (`<page>#heed-resume=<token>`, 7 days) for a
   * session of that token's visitor, and names the conversation to open. A forged, altered or
   * expired token, or one for another site, is refused (401 `resume_token_invalid`): the widget
   * then starts its session as usual. A visitor the host identified needs that user's `identity`
   * (401 `identity_required`). The origin and rate limits are session.start's.
   */
  resume: publicProcedure
    .input(
      z.strictObject({
        siteKey,
        resumeToken: z.string().max(300).refine(noNul, 'must not contain NUL characters'),
        timeZone: timeZone.optional(),
        identity: identityInput.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { site, identity } = await openSite(ctx, input.siteKey, input.identity);
      const { visitor, conversationId } = await resumeVisitor(ctx.services.db, ctx.services.config, {
        siteId: site.id,
        token: input.resumeToken,
        identity,
        requireIdentity: site.requireIdentity,
        timeZone: input.timeZone,
      });
      return { ...sessionOf(ctx.services.config, site, visitor), conversationId };
    }),

  /**
   * The address the visitor leaves to hear back by email while they are away (`null` forgets
   * it), with the page they are on, where the email's link leads back (an http(s) address on an
   * origin the site allows). Refused when the server sends no email (400 `email_off`) or the page
   * is not the site's (400 `page_not_allowed`).
   */
  contactEmail: visitorProcedure
    .input(z.strictObject({ email: contactEmail.nullable(), pageUrl: contactPage }))
    .mutation(({ ctx, input }) =>
      setContactEmail(ctx.services, { ...input, visitorId: ctx.visitor.visitorId, siteId: ctx.visitor.siteId, origin: ctx.origin }),
    ),
});

function sessionOf(config: Config, site: SitePolicy, visitor: SessionVisitor) {
  return {
    visitorToken: signVisitorToken(
      signingKeys(config),
      { visitorId: visitor.id, siteId: site.id },
      { ttlMs: config.VISITOR_TOKEN_TTL_DAYS * DAY_MS },
    ),
    visitorId: visitor.id,
    timeZone: visitor.timeZone,
    site: siteBranding(site, config.ATTACHMENT_MAX_BYTES),
    resumed: visitor.resumed,
    userId: visitor.userId,
    /** this server emails replies to a visitor who leaves an address (the widget offers it only then) */
    emailReplies: !!config.SMTP_URL,
  };
}

/** A site's attachment settings as the widget reads them (the picker's types, limits checked before uploading). */
export function attachmentRules(
  site: Pick<SitePolicy, 'attachmentKinds' | 'attachmentMaxBytes' | 'attachmentMessageMaxBytes'>,
  /** the deployment's ATTACHMENT_MAX_BYTES, which caps the site's own limit */
  fileCeiling: number,
) {
  return {
    kinds: site.attachmentKinds.filter(isAttachmentKind),
    maxBytes: Math.min(site.attachmentMaxBytes, fileCeiling),
    messageMaxBytes: site.attachmentMessageMaxBytes,
    perMessage: ATTACHMENTS_PER_MESSAGE,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the widget shows of its site: the name, and the branding the site owner set in the
 * console (null = the widget's defaults). The greeting is shown by the widget only: it is
 * never stored as a message, so it neither reaches the model nor counts as unread.
 */
function siteBranding(site: SitePolicy, fileCeiling: number) {
  return {
    name: site.name,
    assistantName: site.assistantName,
    greeting: site.greeting,
    /** the greeting in other languages (`greetingFor` picks the visitor's) */
    greetings: readGreetings(site.greetings),
    accentColor: site.accentColor,
    launcherPosition: site.launcherPosition === 'bottom_left' ? ('bottom-left' as const) : ('bottom-right' as const),
    /** the widget reports the host page's address and title as the visitor navigates (`visitor.page`) */
    shareVisitorPages: site.shareVisitorPages,
    /** what the visitor may attach (the server decides again from the bytes); `kinds: []`: attachments are off */
    attachments: attachmentRules(site, fileCeiling),
  };
}

/**
 * What every public session call starts with: the session-start rate limit, the site by its
 * key (NOT_FOUND `site_unknown`), the caller's origin allowed for it, and the host's signed
 * identity when one is given.
 */
async function openSite(ctx: Context, siteKey: string, signed: z.infer<typeof identityInput> | undefined) {
  await limitSessionStart(ctx, siteKey);
  const site = await ctx.services.sites.byKey(siteKey);
  if (!site) throw refuse('not_found', 'site_unknown', 'unknown site key');
  await assertOriginAllowed(ctx, site.id);
  const identity = signed ? await verifyIdentity(site.identitySecrets, signed) : null;
  return { site, identity };
}
