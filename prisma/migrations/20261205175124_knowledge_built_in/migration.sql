-- AlterTable
ALTER TABLE "KnowledgeSource" ADD COLUMN     "builtIn" BOOLEAN NOT NULL DEFAULT false;
