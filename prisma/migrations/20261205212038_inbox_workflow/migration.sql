-- CreateEnum
CREATE TYPE "ConversationStatus" AS ENUM ('open', 'resolved', 'snoozed');

-- CreateEnum
CREATE TYPE "EmailStatus" AS ENUM ('pending', 'sent', 'cancelled', 'failed');

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "assignedAt" TIMESTAMPTZ(3),
ADD COLUMN     "assigneeId" UUID,
ADD COLUMN     "ratedAt" TIMESTAMPTZ(3),
ADD COLUMN     "rating" SMALLINT,
ADD COLUMN     "ratingComment" VARCHAR(1000),
ADD COLUMN     "resolvedAt" TIMESTAMPTZ(3),
ADD COLUMN     "snoozedUntil" TIMESTAMPTZ(3),
ADD COLUMN     "status" "ConversationStatus" NOT NULL DEFAULT 'open';

-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "alerts" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "lastAutoAssignedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "autoAssign" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "shareVisitorPages" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Visitor" ADD COLUMN     "attributes" JSONB,
ADD COLUMN     "contactEmail" VARCHAR(320),
ADD COLUMN     "emailOptOutAt" TIMESTAMPTZ(3),
ADD COLUMN     "language" VARCHAR(35),
ADD COLUMN     "pageTitle" VARCHAR(300),
ADD COLUMN     "pageUrl" VARCHAR(2000),
ADD COLUMN     "referrer" VARCHAR(2000),
ADD COLUMN     "userAgent" VARCHAR(500);

-- CreateTable
CREATE TABLE "ConversationNote" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "operatorId" UUID,
    "authorName" VARCHAR(120) NOT NULL,
    "content" VARCHAR(4000) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationNote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CannedReply" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "shortcut" VARCHAR(40) NOT NULL,
    "content" VARCHAR(4000) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CannedReply_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmailOutbox" (
    "id" UUID NOT NULL,
    "kind" VARCHAR(40) NOT NULL,
    "dedupeKey" VARCHAR(200) NOT NULL,
    "recipient" VARCHAR(320) NOT NULL,
    "siteId" UUID,
    "conversationId" UUID,
    "operatorId" UUID,
    "visitorId" UUID,
    "payload" JSONB,
    "status" "EmailStatus" NOT NULL DEFAULT 'pending',
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMPTZ(3),
    "sentAt" TIMESTAMPTZ(3),
    "lastError" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EmailOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationNote_conversationId_createdAt_idx" ON "ConversationNote"("conversationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CannedReply_siteId_shortcut_key" ON "CannedReply"("siteId", "shortcut");

-- CreateIndex
CREATE UNIQUE INDEX "EmailOutbox_dedupeKey_key" ON "EmailOutbox"("dedupeKey");

-- CreateIndex
CREATE INDEX "EmailOutbox_status_dueAt_idx" ON "EmailOutbox"("status", "dueAt");

-- CreateIndex
CREATE INDEX "EmailOutbox_conversationId_idx" ON "EmailOutbox"("conversationId");

-- CreateIndex
CREATE INDEX "Conversation_assigneeId_idx" ON "Conversation"("assigneeId");

-- CreateIndex
CREATE INDEX "Conversation_status_snoozedUntil_idx" ON "Conversation"("status", "snoozedUntil");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "Operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationNote" ADD CONSTRAINT "ConversationNote_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationNote" ADD CONSTRAINT "ConversationNote_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CannedReply" ADD CONSTRAINT "CannedReply_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
