-- AlterTable
ALTER TABLE "SiteUsage" DROP CONSTRAINT "SiteUsage_pkey",
ADD COLUMN     "shard" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "SiteUsage_pkey" PRIMARY KEY ("siteId", "day", "shard");
