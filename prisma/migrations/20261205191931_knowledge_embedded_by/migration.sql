-- AlterTable
ALTER TABLE "KnowledgeExcerpt" ADD COLUMN     "embeddedBy" VARCHAR(200);

-- CreateIndex
CREATE INDEX "KnowledgeExcerpt_embeddedBy_idx" ON "KnowledgeExcerpt"("embeddedBy");
