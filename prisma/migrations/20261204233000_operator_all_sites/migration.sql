-- An agent's sites become explicit: "all sites" is its own flag, and an empty list means no site.
-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "allSites" BOOLEAN NOT NULL DEFAULT false;

-- Agents that acted on every site because none was set keep doing so, now explicitly.
UPDATE "Operator" SET "allSites" = true WHERE role = 'agent' AND cardinality("siteIds") = 0;
