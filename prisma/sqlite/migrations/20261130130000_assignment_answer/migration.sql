-- CreateTable
CREATE TABLE "AssignmentAnswer" (
    "assignmentId" TEXT NOT NULL PRIMARY KEY,
    "raw" TEXT NOT NULL,
    CONSTRAINT "AssignmentAnswer_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Move the stored answer documents out of Assignment (hand-written: the data must survive the column's removal)
INSERT INTO "AssignmentAnswer" ("assignmentId", "raw") SELECT "id", "answerRaw" FROM "Assignment" WHERE "answerRaw" IS NOT NULL;

-- DropColumn (SQLite ≥ 3.35 drops a plain column in place; no copy of the table)
ALTER TABLE "Assignment" DROP COLUMN "answerRaw";
