-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "costUsd" DECIMAL(12,8);

-- AlterTable (hand-edited: a site's one identity secret becomes the first of its list before the column goes)
ALTER TABLE "Site" ADD COLUMN     "dailySpendCapUsd" DECIMAL(12,4),
ADD COLUMN     "identitySecrets" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "limits" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "requireIdentity" BOOLEAN NOT NULL DEFAULT false;
UPDATE "Site" SET "identitySecrets" = ARRAY["identitySecret"] WHERE "identitySecret" IS NOT NULL;
ALTER TABLE "Site" DROP COLUMN "identitySecret";

-- AlterTable
ALTER TABLE "Visitor" ADD COLUMN     "email" VARCHAR(320),
ADD COLUMN     "identifiedAt" TIMESTAMPTZ(3),
ADD COLUMN     "name" VARCHAR(200);

-- CreateTable
CREATE TABLE "SiteUsage" (
    "siteId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "modelRequests" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" BIGINT NOT NULL DEFAULT 0,
    "completionTokens" BIGINT NOT NULL DEFAULT 0,
    "costUsd" DECIMAL(14,8) NOT NULL DEFAULT 0,
    "capRefusals" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SiteUsage_pkey" PRIMARY KEY ("siteId","day")
);

-- AddForeignKey
ALTER TABLE "SiteUsage" ADD CONSTRAINT "SiteUsage_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
