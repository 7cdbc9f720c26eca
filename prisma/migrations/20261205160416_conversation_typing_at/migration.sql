-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "typingAt" TIMESTAMPTZ(3);
