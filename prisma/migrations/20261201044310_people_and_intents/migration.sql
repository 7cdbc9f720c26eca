-- CreateEnum
CREATE TYPE "ProactiveKind" AS ENUM ('intent', 'check_in', 'server');

-- CreateEnum
CREATE TYPE "ProactiveStatus" AS ENUM ('pending', 'claimed', 'delivered', 'refused', 'failed');

-- AlterEnum
ALTER TYPE "MessageRole" ADD VALUE 'notice';

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "heldAt" TIMESTAMPTZ(3),
ADD COLUMN     "heldById" UUID,
ADD COLUMN     "private" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "waitingSince" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "operatorId" UUID,
ADD COLUMN     "provenanceLabel" VARCHAR(120);

-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "siteIds" UUID[] DEFAULT ARRAY[]::UUID[];

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "proactiveId" UUID;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "checkInAfterMinutes" INTEGER,
ADD COLUMN     "handoffEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "unsolicitedPerDay" INTEGER NOT NULL DEFAULT 2;

-- CreateTable
CREATE TABLE "IntentRule" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "label" VARCHAR(80) NOT NULL,
    "instruction" VARCHAR(2000),
    "fixedMessage" VARCHAR(2000),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IntentRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteApiKey" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "name" VARCHAR(80) NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "hash" VARCHAR(64) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "SiteApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProactiveRequest" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "visitorId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "kind" "ProactiveKind" NOT NULL,
    "name" VARCHAR(64),
    "data" JSONB,
    "text" VARCHAR(2000),
    "status" "ProactiveStatus" NOT NULL DEFAULT 'pending',
    "reason" VARCHAR(40),
    "runId" UUID,
    "messageId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ProactiveRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProactiveRefusal" (
    "siteId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "reason" VARCHAR(40) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProactiveRefusal_pkey" PRIMARY KEY ("siteId","day","reason")
);

-- CreateIndex
CREATE UNIQUE INDEX "IntentRule_siteId_name_key" ON "IntentRule"("siteId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "SiteApiKey_hash_key" ON "SiteApiKey"("hash");

-- CreateIndex
CREATE INDEX "SiteApiKey_siteId_idx" ON "SiteApiKey"("siteId");

-- CreateIndex
CREATE INDEX "ProactiveRequest_status_createdAt_idx" ON "ProactiveRequest"("status", "createdAt");

-- CreateIndex
CREATE INDEX "ProactiveRequest_visitorId_createdAt_idx" ON "ProactiveRequest"("visitorId", "createdAt");

-- CreateIndex
CREATE INDEX "ProactiveRequest_conversationId_createdAt_idx" ON "ProactiveRequest"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "Conversation_waitingSince_idx" ON "Conversation"("waitingSince");

-- CreateIndex
CREATE INDEX "Conversation_lastAssistantAt_idx" ON "Conversation"("lastAssistantAt");

-- CreateIndex
CREATE INDEX "Message_visitorId_seq_idx" ON "Message"("visitorId", "seq");

-- AddForeignKey
ALTER TABLE "IntentRule" ADD CONSTRAINT "IntentRule_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteApiKey" ADD CONSTRAINT "SiteApiKey_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProactiveRequest" ADD CONSTRAINT "ProactiveRequest_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProactiveRequest" ADD CONSTRAINT "ProactiveRequest_visitorId_fkey" FOREIGN KEY ("visitorId") REFERENCES "Visitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProactiveRequest" ADD CONSTRAINT "ProactiveRequest_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProactiveRefusal" ADD CONSTRAINT "ProactiveRefusal_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_heldById_fkey" FOREIGN KEY ("heldById") REFERENCES "Operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;
