-- Import staging (issue 30): an import writes its accepted rows here in short chunks, invisible to every reader of
-- Tweet, and copies them into Tweet in one statement of its final transaction.
-- CreateTable
CREATE TABLE "StagedTweet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "importId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "lang" TEXT,
    "tweetedAt" DATETIME,
    "userLocation" TEXT,
    "placeName" TEXT,
    "placeCountry" TEXT,
    "latitude" REAL,
    "longitude" REAL,
    "role" TEXT NOT NULL,
    "goldLabel" TEXT,
    "sourceLabel" TEXT,
    "predictedLabel" TEXT,
    "status" TEXT NOT NULL,
    "importLine" INTEGER,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "StagedTweet_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "StagedTweet_importId_idx" ON "StagedTweet"("importId");
