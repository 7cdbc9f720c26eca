-- CreateEnum
CREATE TYPE "LauncherPosition" AS ENUM ('bottom_right', 'bottom_left');

-- CreateEnum
CREATE TYPE "OperatorRole" AS ENUM ('owner', 'agent');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "firstTokenAt" TIMESTAMPTZ(3),
ADD COLUMN     "model" VARCHAR(100);

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "accentColor" VARCHAR(7),
ADD COLUMN     "assistantName" VARCHAR(60),
ADD COLUMN     "greeting" VARCHAR(500),
ADD COLUMN     "launcherPosition" "LauncherPosition" NOT NULL DEFAULT 'bottom_right',
ADD COLUMN     "model" VARCHAR(100),
ADD COLUMN     "replyMaxTokens" INTEGER,
ADD COLUMN     "systemPrompt" VARCHAR(8000);

-- CreateTable
CREATE TABLE "Operator" (
    "id" UUID NOT NULL,
    "email" VARCHAR(320) NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "role" "OperatorRole" NOT NULL DEFAULT 'agent',
    "passwordHash" VARCHAR(300),
    "inviteTokenHash" VARCHAR(64),
    "inviteExpiresAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Operator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperatorSession" (
    "id" VARCHAR(64) NOT NULL,
    "operatorId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "OperatorSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperatorRead" (
    "operatorId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "lastReadAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "OperatorRead_pkey" PRIMARY KEY ("operatorId","conversationId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Operator_email_key" ON "Operator"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Operator_inviteTokenHash_key" ON "Operator"("inviteTokenHash");

-- CreateIndex
CREATE INDEX "OperatorSession_operatorId_idx" ON "OperatorSession"("operatorId");

-- CreateIndex
CREATE INDEX "OperatorRead_conversationId_idx" ON "OperatorRead"("conversationId");

-- CreateIndex
CREATE INDEX "Conversation_siteId_updatedAt_id_idx" ON "Conversation"("siteId", "updatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Conversation_updatedAt_id_idx" ON "Conversation"("updatedAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "OperatorSession" ADD CONSTRAINT "OperatorSession_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OperatorRead" ADD CONSTRAINT "OperatorRead_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OperatorRead" ADD CONSTRAINT "OperatorRead_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
