import { router } from '../../trpc.ts';

/** console.operators — built in the console issue (#10). */
export const operatorsRouter = router({});
