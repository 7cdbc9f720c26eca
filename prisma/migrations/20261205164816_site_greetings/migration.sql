-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "greetings" JSONB;
