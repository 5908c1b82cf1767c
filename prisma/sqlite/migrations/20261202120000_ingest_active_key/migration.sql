-- AlterTable
ALTER TABLE "ImportBatch" ADD COLUMN "activeKey" TEXT;
ALTER TABLE "ImportBatch" ADD COLUMN "fileLabels" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "ImportBatch_activeKey_key" ON "ImportBatch"("activeKey");
