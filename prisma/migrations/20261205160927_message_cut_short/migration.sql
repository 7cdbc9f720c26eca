-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "cutShort" BOOLEAN NOT NULL DEFAULT false;
