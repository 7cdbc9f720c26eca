-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "finishReason" VARCHAR(32);
