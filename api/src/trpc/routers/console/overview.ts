import { router } from '../../trpc.ts';

/** console.overview — built in the console issue (#10). */
export const overviewRouter = router({});
