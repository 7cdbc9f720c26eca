import { router } from '../../trpc.ts';

/** console.conversations — built in the console issue (#10). */
export const conversationsRouter = router({});
