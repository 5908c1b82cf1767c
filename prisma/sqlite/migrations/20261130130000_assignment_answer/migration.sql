-- CreateTable
CREATE TABLE "AssignmentAnswer" (
    "assignmentId" TEXT NOT NULL PRIMARY KEY,
    "raw" TEXT NOT NULL,
    CONSTRAINT "AssignmentAnswer_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Move the stored answer documents out of Assignment (hand-written: the data must survive the column's removal)
INSERT INTO "AssignmentAnswer" ("assignmentId", "raw") SELECT "id", "answerRaw" FROM "Assignment" WHERE "answerRaw" IS NOT NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Assignment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hitId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "providerAssignmentId" TEXT NOT NULL,
    "providerStatus" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "acceptTime" DATETIME,
    "submitTime" DATETIME,
    "autoApprovalTime" DATETIME,
    "goldCorrect" INTEGER,
    "goldTotal" INTEGER,
    "decision" TEXT,
    "decisionReason" JSONB,
    "decidedBy" TEXT,
    "decidedAt" DATETIME,
    "decisionSentAt" DATETIME,
    "feedback" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Assignment_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Assignment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Assignment" ("acceptTime", "autoApprovalTime", "createdAt", "decidedAt", "decidedBy", "decision", "decisionReason", "decisionSentAt", "feedback", "goldCorrect", "goldTotal", "hitId", "id", "providerAssignmentId", "providerStatus", "status", "submitTime", "workerId") SELECT "acceptTime", "autoApprovalTime", "createdAt", "decidedAt", "decidedBy", "decision", "decisionReason", "decisionSentAt", "feedback", "goldCorrect", "goldTotal", "hitId", "id", "providerAssignmentId", "providerStatus", "status", "submitTime", "workerId" FROM "Assignment";
DROP TABLE "Assignment";
ALTER TABLE "new_Assignment" RENAME TO "Assignment";
CREATE UNIQUE INDEX "Assignment_providerAssignmentId_key" ON "Assignment"("providerAssignmentId");
CREATE INDEX "Assignment_hitId_status_idx" ON "Assignment"("hitId", "status");
CREATE INDEX "Assignment_workerId_idx" ON "Assignment"("workerId");
CREATE INDEX "Assignment_status_autoApprovalTime_idx" ON "Assignment"("status", "autoApprovalTime");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


