-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "sources" JSONB;
