-- CreateTable
CREATE TABLE "LocalCrowdRecord" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "parent" TEXT,
    "data" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("scope", "key")
);

-- CreateIndex
CREATE INDEX "LocalCrowdRecord_scope_parent_idx" ON "LocalCrowdRecord"("scope", "parent");


