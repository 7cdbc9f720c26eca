-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "retentionDays" INTEGER,
ADD COLUMN     "retentionSweptAt" TIMESTAMPTZ(3),
ADD COLUMN     "retentionSweptCount" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ErasureRecord" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "subject" VARCHAR(20) NOT NULL,
    "subjectHash" VARCHAR(64) NOT NULL,
    "actorKind" VARCHAR(20) NOT NULL,
    "actorId" UUID,
    "counts" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ErasureRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ErasureRecord_siteId_subjectHash_createdAt_idx" ON "ErasureRecord"("siteId", "subjectHash", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "ErasureRecord" ADD CONSTRAINT "ErasureRecord_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
