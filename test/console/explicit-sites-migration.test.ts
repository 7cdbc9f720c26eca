import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { listMigrations } from '../../api/src/db/migrate.ts';
import { reserveTestDatabase, testDatabaseServerUrl } from '../support/database.ts';

/**
 * Agents' sites became explicit: an empty list now means no site. A running installation's
 * agents that had no sites set acted on every site, and must keep doing so after the upgrade,
 * now as the explicit "all sites"; agents with sites keep exactly those.
 */
const MIGRATION = '20261204233000_operator_all_sites';
const database = reserveTestDatabase();
afterAll(() => database.drop());

test('upgrading keeps every agent’s access: none set becomes the explicit "all sites", a list stays that list', async () => {
  const migrations = await listMigrations();
  const at = migrations.findIndex((m) => m.name === MIGRATION);
  expect(at).toBeGreaterThan(0);
  const admin = new pg.Client({ connectionString: `${testDatabaseServerUrl()}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(new URL(database.url).pathname.slice(1))}`);
  await admin.end();
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    for (const m of migrations.slice(0, at)) await db.query(m.sql);
    const site = (
      await db.query<{ id: string }>(`INSERT INTO "Site" (id, key, name) VALUES (gen_random_uuid(), 'shop', 'Shop') RETURNING id`)
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO "Operator" (id, email, name, role, "siteIds") VALUES
        (gen_random_uuid(), 'everywhere@example.test', 'Every', 'agent', '{}'),
        (gen_random_uuid(), 'shop@example.test', 'Shop', 'agent', ARRAY[$1::uuid]),
        (gen_random_uuid(), 'owner@example.test', 'Owner', 'owner', '{}')`,
      [site],
    );
    await db.query(migrations[at]!.sql);
    const rows = await db.query<{ email: string; allSites: boolean; siteIds: string[] }>(
      `SELECT email, "allSites", "siteIds"::text[] AS "siteIds" FROM "Operator" ORDER BY email`,
    );
    expect(rows.rows).toEqual([
      { email: 'everywhere@example.test', allSites: true, siteIds: [] },
      { email: 'owner@example.test', allSites: false, siteIds: [] },
      { email: 'shop@example.test', allSites: false, siteIds: [site] },
    ]);
    // and an operator added from now on acts on no site until one is chosen
    await db.query(`INSERT INTO "Operator" (id, email, name, role) VALUES (gen_random_uuid(), 'new@example.test', 'New', 'agent')`);
    expect(
      (await db.query(`SELECT "allSites", "siteIds"::text[] AS "siteIds" FROM "Operator" WHERE email = 'new@example.test'`)).rows,
    ).toEqual([{ allSites: false, siteIds: [] }]);
  } finally {
    await db.end();
  }
});
