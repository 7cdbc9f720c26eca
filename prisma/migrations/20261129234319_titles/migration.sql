-- CreateEnum
CREATE TYPE "TitleCheckOutcome" AS ENUM ('changed', 'kept', 'failed', 'rejected', 'skipped');

-- CreateTable
CREATE TABLE "TitleCheck" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "outcome" "TitleCheckOutcome" NOT NULL,
    "model" VARCHAR(100) NOT NULL,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "costUsd" DECIMAL(12,8),
    "latencyMs" INTEGER,
    "errorCode" VARCHAR(64),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TitleCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TitleCheck_conversationId_createdAt_idx" ON "TitleCheck"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "TitleCheck_siteId_createdAt_idx" ON "TitleCheck"("siteId", "createdAt");

-- CreateIndex
CREATE INDEX "Conversation_titleRequestedAt_idx" ON "Conversation"("titleRequestedAt");

-- CreateIndex
CREATE INDEX "Conversation_titleState_titleLeaseUntil_idx" ON "Conversation"("titleState", "titleLeaseUntil");

-- AddForeignKey
ALTER TABLE "TitleCheck" ADD CONSTRAINT "TitleCheck_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TitleCheck" ADD CONSTRAINT "TitleCheck_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;
