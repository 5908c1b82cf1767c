-- Language models (issue 32): a model's labelling runs of an event's tweets (endpoint settings, token bill, gold
-- grading) and their labels, one per tweet and pass (null: no answer of the scheme).
-- CreateTable
CREATE TABLE "LlmRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "jobId" TEXT,
    "model" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "temperature" REAL NOT NULL,
    "passes" INTEGER NOT NULL DEFAULT 1,
    "promptVersion" TEXT NOT NULL,
    "exampleTweetIds" JSONB NOT NULL,
    "inputPricePerMillion" REAL NOT NULL DEFAULT 0,
    "outputPricePerMillion" REAL NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "tweetsTotal" INTEGER NOT NULL DEFAULT 0,
    "tweetsLabelled" INTEGER NOT NULL DEFAULT 0,
    "noAnswer" INTEGER NOT NULL DEFAULT 0,
    "goldCorrect" INTEGER NOT NULL DEFAULT 0,
    "goldTotal" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "LlmRun_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LlmLabel" (
    "runId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "pass" INTEGER NOT NULL DEFAULT 0,
    "label" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("runId", "tweetId", "pass"),
    CONSTRAINT "LlmLabel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "LlmRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LlmLabel_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LlmRun_eventId_createdAt_idx" ON "LlmRun"("eventId", "createdAt");

-- CreateIndex
CREATE INDEX "LlmLabel_tweetId_idx" ON "LlmLabel"("tweetId");


