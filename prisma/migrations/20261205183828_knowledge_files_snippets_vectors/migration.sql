-- CreateEnum
CREATE TYPE "KnowledgeKind" AS ENUM ('site', 'file', 'snippet');

-- AlterTable
ALTER TABLE "KnowledgeExcerpt" ADD COLUMN     "embedding" BYTEA,
ADD COLUMN     "snippet" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "KnowledgePage" ALTER COLUMN "url" DROP NOT NULL;

-- AlterTable
ALTER TABLE "KnowledgeSource" ADD COLUMN     "bytes" INTEGER,
ADD COLUMN     "kind" "KnowledgeKind" NOT NULL DEFAULT 'site',
ADD COLUMN     "name" VARCHAR(300),
ALTER COLUMN "url" DROP NOT NULL,
ALTER COLUMN "nextSyncAt" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "retrieved" JSONB;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "knowledgeVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "UnansweredQuestion" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "text" VARCHAR(500) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dismissedAt" TIMESTAMPTZ(3),

    CONSTRAINT "UnansweredQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "UnansweredQuestion_runId_key" ON "UnansweredQuestion"("runId");

-- CreateIndex
CREATE INDEX "UnansweredQuestion_siteId_createdAt_idx" ON "UnansweredQuestion"("siteId", "createdAt");

-- AddForeignKey
ALTER TABLE "UnansweredQuestion" ADD CONSTRAINT "UnansweredQuestion_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UnansweredQuestion" ADD CONSTRAINT "UnansweredQuestion_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
