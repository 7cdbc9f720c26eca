-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "attachmentCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "attachmentKinds" TEXT[] DEFAULT ARRAY['png', 'jpeg', 'webp', 'gif', 'pdf', 'text']::TEXT[],
ADD COLUMN     "attachmentMaxBytes" INTEGER NOT NULL DEFAULT 10485760,
ADD COLUMN     "attachmentMessageMaxBytes" INTEGER NOT NULL DEFAULT 20971520;

-- CreateTable
CREATE TABLE "Attachment" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "visitorId" UUID NOT NULL,
    "messageId" UUID,
    "operatorId" UUID,
    "name" VARCHAR(200) NOT NULL,
    "mime" VARCHAR(64) NOT NULL,
    "bytes" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "sha256" CHAR(64) NOT NULL,
    "storeKey" VARCHAR(200) NOT NULL,
    "accessKey" VARCHAR(32) NOT NULL,
    "text" TEXT,
    "position" SMALLINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileBlob" (
    "key" VARCHAR(200) NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlob_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "Attachment_messageId_position_idx" ON "Attachment"("messageId", "position");

-- CreateIndex
CREATE INDEX "Attachment_conversationId_idx" ON "Attachment"("conversationId");

-- CreateIndex
CREATE INDEX "Attachment_createdAt_idx" ON "Attachment"("createdAt");

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE SET NULL ON UPDATE CASCADE;
