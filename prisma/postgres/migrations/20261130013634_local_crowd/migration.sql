-- CreateTable
CREATE TABLE "LocalCrowdRecord" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "parent" TEXT,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LocalCrowdRecord_pkey" PRIMARY KEY ("scope","key")
);

-- CreateIndex
CREATE INDEX "LocalCrowdRecord_scope_parent_idx" ON "LocalCrowdRecord"("scope", "parent");
