-- Judgment imports (issue 33): ImportBatch.options (the mapping chosen in the preview), Hit.importId (an imported file's page of work)
-- AlterTable
ALTER TABLE "Hit" ADD COLUMN     "importId" TEXT;

-- AlterTable
ALTER TABLE "ImportBatch" ADD COLUMN     "options" JSONB;

-- CreateIndex
CREATE INDEX "Hit_importId_idx" ON "Hit"("importId");

-- AddForeignKey
ALTER TABLE "Hit" ADD CONSTRAINT "Hit_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;


