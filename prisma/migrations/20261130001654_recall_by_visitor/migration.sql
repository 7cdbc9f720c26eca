-- Recall searches one visitor's messages. With a GIN index on `search` alone, a common term makes
-- PostgreSQL read every visitor's matching rows and then filter: 140 ms for a visitor with 20,000
-- messages among 424,000. A GIN index over (visitorId, search) intersects the visitor's postings
-- with the terms' inside the index: 9 ms (bench notes in api/src/chat/recall.ts).

-- Hand-edited: btree_gin gives GIN an operator class for uuid (Prisma does not manage extensions
-- without a preview feature, so it neither writes nor diffs this line).
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- DropIndex
DROP INDEX "Message_search_idx";

-- AlterTable
-- Hand-edited: Prisma adds the column NOT NULL at once, which fails on a table with rows; add it,
-- copy each conversation's visitor, then require it.
ALTER TABLE "Message" ADD COLUMN     "visitorId" UUID;
UPDATE "Message" m SET "visitorId" = c."visitorId" FROM "Conversation" c WHERE c.id = m."conversationId";
ALTER TABLE "Message" ALTER COLUMN "visitorId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "Message_visitorId_search_idx" ON "Message" USING GIN ("visitorId" uuid_ops, "search");
