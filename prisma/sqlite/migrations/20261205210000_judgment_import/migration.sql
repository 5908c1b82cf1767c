-- Judgment imports (issue 33): ImportBatch.options (the mapping chosen in the preview), Hit.importId (an imported file's page of work)
-- AlterTable
ALTER TABLE "ImportBatch" ADD COLUMN "options" JSONB;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Hit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "batchId" TEXT,
    "seq" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "providerHitId" TEXT,
    "uniqueRequestToken" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "maxAssignments" INTEGER NOT NULL,
    "rewardCents" INTEGER NOT NULL,
    "seed" INTEGER NOT NULL,
    "approvedCount" INTEGER NOT NULL DEFAULT 0,
    "rejectedCount" INTEGER NOT NULL DEFAULT 0,
    "acceptedTweets" INTEGER NOT NULL DEFAULT 0,
    "publishedAt" DATETIME,
    "expiresAt" DATETIME,
    "decidedAt" DATETIME,
    "lastSyncedAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "syncError" TEXT,
    "importId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Hit_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Hit_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "HitBatch" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Hit_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Hit" ("acceptedTweets", "approvedCount", "batchId", "createdAt", "decidedAt", "eventId", "expiresAt", "id", "lastSyncedAt", "leaseOwner", "leaseUntil", "maxAssignments", "provider", "providerHitId", "publishedAt", "rejectedCount", "rewardCents", "seed", "seq", "status", "syncError", "uniqueRequestToken") SELECT "acceptedTweets", "approvedCount", "batchId", "createdAt", "decidedAt", "eventId", "expiresAt", "id", "lastSyncedAt", "leaseOwner", "leaseUntil", "maxAssignments", "provider", "providerHitId", "publishedAt", "rejectedCount", "rewardCents", "seed", "seq", "status", "syncError", "uniqueRequestToken" FROM "Hit";
DROP TABLE "Hit";
ALTER TABLE "new_Hit" RENAME TO "Hit";
CREATE UNIQUE INDEX "Hit_providerHitId_key" ON "Hit"("providerHitId");
CREATE UNIQUE INDEX "Hit_uniqueRequestToken_key" ON "Hit"("uniqueRequestToken");
CREATE INDEX "Hit_eventId_status_idx" ON "Hit"("eventId", "status");
CREATE INDEX "Hit_status_lastSyncedAt_idx" ON "Hit"("status", "lastSyncedAt");
CREATE INDEX "Hit_importId_idx" ON "Hit"("importId");
CREATE UNIQUE INDEX "Hit_eventId_seq_key" ON "Hit"("eventId", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


