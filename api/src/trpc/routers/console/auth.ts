import { router } from '../../trpc.ts';

/** console.auth — built in the console issue (#10). */
export const authRouter = router({});
