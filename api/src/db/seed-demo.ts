import type { Db } from './client.ts';

/** Makes sure the demo site exists, so the demo page works on first run. */
export async function seedDemoSite(db: Db, key: string): Promise<void> {
  if (!key) return;
  await db.site.upsert({ where: { key }, update: {}, create: { key, name: 'Heed demo' } });
}
