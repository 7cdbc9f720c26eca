-- CreateEnum
CREATE TYPE "TitleSource" AS ENUM ('first_message', 'generated', 'manual', 'fixed');

-- CreateEnum
CREATE TYPE "TitleState" AS ENUM ('pending', 'generating', 'generated', 'failed', 'manual');

-- CreateEnum
CREATE TYPE "MessageRole" AS ENUM ('user', 'assistant', 'operator');

-- CreateEnum
CREATE TYPE "MessageState" AS ENUM ('pending', 'claimed', 'answered', 'failed');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('claimed', 'streaming', 'completed', 'failed', 'awaiting_input', 'abandoned');

-- CreateTable
CREATE TABLE "Site" (
    "id" UUID NOT NULL,
    "key" VARCHAR(64) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "allowedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "identitySecret" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Site_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Visitor" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "timeZone" VARCHAR(64) NOT NULL DEFAULT 'UTC',
    "externalId" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Visitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Conversation" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "visitorId" UUID NOT NULL,
    "title" VARCHAR(120),
    "titleSource" "TitleSource",
    "titleState" "TitleState",
    "titleRequestedAt" TIMESTAMPTZ(3),
    "titleAttempts" INTEGER NOT NULL DEFAULT 0,
    "titleLeaseUntil" TIMESTAMPTZ(3),
    "lastAssistantAt" TIMESTAMPTZ(3),
    "excerpt" VARCHAR(200),
    "lastReadAt" TIMESTAMPTZ(3),
    "fence" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "conversationId" UUID NOT NULL,
    "role" "MessageRole" NOT NULL,
    "content" TEXT NOT NULL,
    "clientMessageId" VARCHAR(64),
    "state" "MessageState",
    "provenance" VARCHAR(64),
    "runId" UUID,
    "error" VARCHAR(64),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "fence" INTEGER NOT NULL,
    "status" "RunStatus" NOT NULL,
    "workerId" VARCHAR(100) NOT NULL,
    "leaseUntil" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" VARCHAR(64),
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" BIGSERIAL NOT NULL,
    "visitorId" UUID NOT NULL,
    "conversationId" UUID,
    "type" VARCHAR(40) NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Site_key_key" ON "Site"("key");

-- CreateIndex
CREATE UNIQUE INDEX "Visitor_siteId_externalId_key" ON "Visitor"("siteId", "externalId");

-- CreateIndex
CREATE INDEX "Conversation_visitorId_updatedAt_idx" ON "Conversation"("visitorId", "updatedAt" DESC);

-- CreateIndex
CREATE INDEX "Message_conversationId_seq_idx" ON "Message"("conversationId", "seq");

-- CreateIndex
CREATE INDEX "Message_state_createdAt_idx" ON "Message"("state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Message_conversationId_clientMessageId_key" ON "Message"("conversationId", "clientMessageId");

-- CreateIndex
CREATE INDEX "Run_status_leaseUntil_idx" ON "Run"("status", "leaseUntil");

-- CreateIndex
CREATE UNIQUE INDEX "Run_conversationId_fence_key" ON "Run"("conversationId", "fence");

-- CreateIndex
CREATE INDEX "Event_visitorId_id_idx" ON "Event"("visitorId", "id");

-- AddForeignKey
ALTER TABLE "Visitor" ADD CONSTRAINT "Visitor_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_visitorId_fkey" FOREIGN KEY ("visitorId") REFERENCES "Visitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_visitorId_fkey" FOREIGN KEY ("visitorId") REFERENCES "Visitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
