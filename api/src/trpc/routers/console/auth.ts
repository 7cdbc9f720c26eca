import { z } from 'zod';
import { accessChanged } from '../../../operators/access-changed.ts';
import { acceptInvite } from '../../../operators/invites.ts';
import { clearConsoleCookie, setConsoleCookie } from '../../console-cookie.ts';
import { givenPassword, linkToken, newPassword, operatorEmail, operatorName, type Me } from '../../../operators/operator-inputs.ts';
import { createOperatorSession, findOperatorSession, revokeOperatorSession } from '../../../operators/operator-sessions.ts';
import { checkSignIn } from '../../../operators/sign-in.ts';
import { consoleOriginProcedure } from '../../console-procedure.ts';
import { router, type Context } from '../../trpc.ts';

/** Opens a session for the operator and puts its cookie on the response. */
async function signInAs(ctx: Context, me: Me): Promise<{ operator: Me }> {
  const { token } = await createOperatorSession(ctx.services.db, me.id);
  setConsoleCookie(ctx, token);
  return { operator: me };
}

/**
 * console.auth: signing in and out. All public (no session needed), but mutations must come
 * from the console's own origin. The session token travels only in the cookie: no answer
 * holds it, nor a password hash.
 */
export const authRouter = router({
  /**
   * Email and password → a session cookie. Wrong email or password: UNAUTHORIZED
   * `bad_credentials` (one answer for both); too many attempts: TOO_MANY_REQUESTS
   * `sign_in_throttled` with `retryAfterMs`.
   */
  signIn: consoleOriginProcedure
    .input(z.strictObject({ email: operatorEmail, password: givenPassword }))
    .mutation(async ({ ctx, input }) => {
      const me = await checkSignIn(ctx.services, { ...input, ip: ctx.ip });
      return signInAs(ctx, me);
    }),

  /** Ends this browser's session (on every process at once, its open streams too) and clears the cookie; harmless when signed out already. */
  signOut: consoleOriginProcedure.mutation(async ({ ctx }) => {
    const staff = ctx.consoleToken ? await findOperatorSession(ctx.services.db, ctx.consoleToken) : null;
    if (staff) {
      await revokeOperatorSession(ctx.services.db, staff.sessionId);
      await accessChanged(ctx.services.bus, [staff.operatorId]);
    }
    clearConsoleCookie(ctx);
    return { signedOut: true as const };
  }),

  /**
   * The signed-in operator, or null. A live session's cookie is sent again with a full
   * Max-Age, so the browser keeps it as long as the session slides on the server.
   */
  me: consoleOriginProcedure.query(async ({ ctx }): Promise<Me | null> => {
    const staff = ctx.consoleToken ? await findOperatorSession(ctx.services.db, ctx.consoleToken) : null;
    if (!staff) return null;
    setConsoleCookie(ctx, ctx.consoleToken!);
    return { id: staff.operatorId, email: staff.email, name: staff.name, role: staff.role };
  }),

  /** An invited operator sets their name and password (the link's token works once, for 7 days) and is signed in. */
  acceptInvite: consoleOriginProcedure
    .input(z.strictObject({ token: linkToken, name: operatorName, password: newPassword }))
    .mutation(async ({ ctx, input }) => signInAs(ctx, await acceptInvite(ctx.services.db, input))),
});
