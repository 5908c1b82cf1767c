-- AlterTable
ALTER TABLE "Tweet" ADD COLUMN "importLine" INTEGER;
