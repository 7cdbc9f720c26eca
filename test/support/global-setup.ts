import { dropLeftoverTestDatabases, ensureTestTemplate } from './database.ts';

/**
 * vitest `globalSetup`: before any worker starts, clear databases left by interrupted runs and
 * build the migrated template once, so workers find it current and go straight to cloning it.
 */
export default async function setup(): Promise<void> {
  const runStartedAt = new Date();
  const dropped = await dropLeftoverTestDatabases(runStartedAt);
  if (dropped.length > 0) console.log(`test databases: dropped ${dropped.length} left by earlier runs`);
  await ensureTestTemplate();
}
