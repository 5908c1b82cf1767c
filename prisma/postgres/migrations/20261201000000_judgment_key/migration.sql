-- DropIndex
DROP INDEX "Judgment_assignmentId_tweetId_key";

-- AlterTable
ALTER TABLE "Judgment" DROP CONSTRAINT "Judgment_pkey",
DROP COLUMN "id",
ADD CONSTRAINT "Judgment_pkey" PRIMARY KEY ("assignmentId", "tweetId");


