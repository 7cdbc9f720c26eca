-- AlterTable
ALTER TABLE "Visitor" ADD COLUMN     "contactPageUrl" VARCHAR(2000);
