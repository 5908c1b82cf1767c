-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Judgment" (
    "assignmentId" TEXT NOT NULL,
    "hitItemId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "isGold" BOOLEAN NOT NULL,
    "correct" BOOLEAN,
    "counted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("assignmentId", "tweetId"),
    CONSTRAINT "Judgment_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_hitItemId_fkey" FOREIGN KEY ("hitItemId") REFERENCES "HitItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Judgment" ("assignmentId", "correct", "counted", "createdAt", "hitItemId", "isGold", "label", "tweetId", "workerId") SELECT "assignmentId", "correct", "counted", "createdAt", "hitItemId", "isGold", "label", "tweetId", "workerId" FROM "Judgment";
DROP TABLE "Judgment";
ALTER TABLE "new_Judgment" RENAME TO "Judgment";
CREATE INDEX "Judgment_tweetId_idx" ON "Judgment"("tweetId");
CREATE INDEX "Judgment_workerId_idx" ON "Judgment"("workerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


