import { router } from '../../trpc.ts';

/** console.sites — built in the console issue (#10). */
export const sitesRouter = router({});
