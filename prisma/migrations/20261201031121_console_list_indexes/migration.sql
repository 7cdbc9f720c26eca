-- CreateIndex
CREATE INDEX "InputRequest_status_conversationId_idx" ON "InputRequest"("status", "conversationId");

-- CreateIndex
CREATE INDEX "Run_startedAt_idx" ON "Run"("startedAt");
