-- CreateTable
CREATE TABLE "AssignmentAnswer" (
    "assignmentId" TEXT NOT NULL,
    "raw" TEXT NOT NULL,

    CONSTRAINT "AssignmentAnswer_pkey" PRIMARY KEY ("assignmentId")
);

-- Move the stored answer documents out of Assignment (hand-written: the data must survive the column's removal)
INSERT INTO "AssignmentAnswer" ("assignmentId", "raw") SELECT "id", "answerRaw" FROM "Assignment" WHERE "answerRaw" IS NOT NULL;

-- AlterTable
ALTER TABLE "Assignment" DROP COLUMN "answerRaw";

-- AddForeignKey
ALTER TABLE "AssignmentAnswer" ADD CONSTRAINT "AssignmentAnswer_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
