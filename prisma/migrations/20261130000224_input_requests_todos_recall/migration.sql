-- CreateEnum
CREATE TYPE "InputRequestStatus" AS ENUM ('open', 'answered', 'superseded');

-- CreateEnum
CREATE TYPE "TodoStatus" AS ENUM ('open', 'done');

-- AlterTable
-- Hand-edited: Prisma writes a plain column; recall needs it generated from `content`, so it can never
-- drift from the text. `simple` (lowercasing, no stemming, no stop words) because visitors write in any
-- language and a wrong-language stemmer mangles words; see api/src/chat/recall.ts.
ALTER TABLE "Message" ADD COLUMN     "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, content)) STORED;

-- CreateTable
CREATE TABLE "InputRequest" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "toolCallId" VARCHAR(100) NOT NULL,
    "messageId" UUID NOT NULL,
    "question" VARCHAR(1000) NOT NULL,
    "choices" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowFreeText" BOOLEAN NOT NULL DEFAULT true,
    "status" "InputRequestStatus" NOT NULL DEFAULT 'open',
    "answerMessageId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMPTZ(3),

    CONSTRAINT "InputRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Todo" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "text" VARCHAR(200) NOT NULL,
    "status" "TodoStatus" NOT NULL DEFAULT 'open',
    "addedRunId" UUID NOT NULL,
    "completedRunId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Todo_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "InputRequest_messageId_key" ON "InputRequest"("messageId");

-- CreateIndex
CREATE UNIQUE INDEX "InputRequest_answerMessageId_key" ON "InputRequest"("answerMessageId");

-- CreateIndex
CREATE INDEX "InputRequest_conversationId_status_idx" ON "InputRequest"("conversationId", "status");

-- CreateIndex
CREATE INDEX "Todo_conversationId_status_createdAt_idx" ON "Todo"("conversationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Message_search_idx" ON "Message" USING GIN ("search");

-- AddForeignKey
ALTER TABLE "InputRequest" ADD CONSTRAINT "InputRequest_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InputRequest" ADD CONSTRAINT "InputRequest_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InputRequest" ADD CONSTRAINT "InputRequest_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InputRequest" ADD CONSTRAINT "InputRequest_answerMessageId_fkey" FOREIGN KEY ("answerMessageId") REFERENCES "Message"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Todo" ADD CONSTRAINT "Todo_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
