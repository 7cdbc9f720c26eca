-- CreateIndex
CREATE INDEX "InputRequest_runId_idx" ON "InputRequest"("runId");

-- CreateIndex
CREATE INDEX "Message_runId_idx" ON "Message"("runId");

-- CreateIndex
CREATE INDEX "UnansweredQuestion_conversationId_idx" ON "UnansweredQuestion"("conversationId");
