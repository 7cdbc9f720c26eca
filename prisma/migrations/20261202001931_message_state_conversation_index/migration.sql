-- DropIndex
DROP INDEX "Message_state_createdAt_idx";

-- CreateIndex
CREATE INDEX "Message_state_conversationId_createdAt_idx" ON "Message"("state", "conversationId", "createdAt");
