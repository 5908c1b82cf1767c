-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'researcher',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "sessionVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastFailure" DATETIME,
    "lockedUntil" DATETIME
);

-- CreateTable
CREATE TABLE "LabelScheme" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "schemeId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,
    CONSTRAINT "Label_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "startDate" DATETIME,
    "endDate" DATETIME,
    "locations" JSONB NOT NULL,
    "schemeId" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'mturk',
    "settings" JSONB NOT NULL,
    "filters" JSONB NOT NULL,
    "budgetCapCents" INTEGER,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Event_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Event_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileHash" TEXT NOT NULL,
    "fileSize" INTEGER NOT NULL,
    "format" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "rowsRead" INTEGER NOT NULL DEFAULT 0,
    "rowsStored" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "funnel" JSONB,
    "message" TEXT,
    "jobId" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "ImportBatch_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ImportBatch_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ImportBatch_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ImportError" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "importId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "column" TEXT,
    "reason" TEXT NOT NULL,
    "raw" TEXT,
    CONSTRAINT "ImportError_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Tweet" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "role" TEXT NOT NULL DEFAULT 'unknown',
    "goldLabel" TEXT,
    "sourceLabel" TEXT,
    "predictedLabel" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "duplicateOfId" TEXT,
    "importId" TEXT,
    "retiredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Tweet_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Tweet_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Tweet_duplicateOfId_fkey" FOREIGN KEY ("duplicateOfId") REFERENCES "Tweet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QualificationTest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT,
    "schemeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerQualTypeId" TEXT,
    "goldTweetIds" JSONB NOT NULL,
    "questionFormXml" TEXT NOT NULL,
    "answerKeyXml" TEXT NOT NULL,
    "passPercent" INTEGER NOT NULL DEFAULT 60,
    "requirements" JSONB,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "message" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "QualificationTest_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QualificationTest_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QualificationResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "testId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "answers" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "QualificationResult_testId_fkey" FOREIGN KEY ("testId") REFERENCES "QualificationTest" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QualificationResult_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HitBatch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "hitCount" INTEGER NOT NULL,
    "rewardCents" INTEGER NOT NULL,
    "assignmentsPerHit" INTEGER NOT NULL,
    "lifetimeSeconds" INTEGER NOT NULL,
    "durationSeconds" INTEGER NOT NULL,
    "autoApprovalSeconds" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "keywords" TEXT NOT NULL DEFAULT '',
    "estimatedCostCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "jobId" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HitBatch_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Hit" (
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Hit_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Hit_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "HitBatch" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HitItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hitId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "isGold" BOOLEAN NOT NULL,
    CONSTRAINT "HitItem_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HitItem_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "userId" TEXT,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "blockedReason" TEXT,
    "qualified" BOOLEAN NOT NULL DEFAULT false,
    "assignmentsSubmitted" INTEGER NOT NULL DEFAULT 0,
    "assignmentsApproved" INTEGER NOT NULL DEFAULT 0,
    "assignmentsRejected" INTEGER NOT NULL DEFAULT 0,
    "goldCorrect" INTEGER NOT NULL DEFAULT 0,
    "goldTotal" INTEGER NOT NULL DEFAULT 0,
    "agreeCount" INTEGER NOT NULL DEFAULT 0,
    "agreeTotal" INTEGER NOT NULL DEFAULT 0,
    "workSeconds" INTEGER NOT NULL DEFAULT 0,
    "earningsCents" INTEGER NOT NULL DEFAULT 0,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Worker_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Assignment" (
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
    "answerRaw" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Assignment_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Assignment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Judgment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "assignmentId" TEXT NOT NULL,
    "hitItemId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "isGold" BOOLEAN NOT NULL,
    "correct" BOOLEAN,
    "counted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Judgment_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_hitItemId_fkey" FOREIGN KEY ("hitItemId") REFERENCES "HitItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AcceptedLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tweetId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "topVotes" INTEGER NOT NULL,
    "totalVotes" INTEGER NOT NULL,
    "votes" JSONB NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'majority',
    "decidedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AcceptedLabel_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AcceptedLabel_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "eventId" TEXT,
    "payload" JSONB NOT NULL,
    "result" JSONB,
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER,
    "message" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "runAfter" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Job_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Job_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "eventId" TEXT,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT,
    "action" TEXT NOT NULL,
    "reason" TEXT,
    "details" JSONB,
    CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AuditLog_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CostEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "hitId" TEXT,
    "assignmentId" TEXT,
    "workerId" TEXT,
    "kind" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CostEntry_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CostEntry_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "CostEntry_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "CostEntry_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MetricSnapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "judgments" INTEGER NOT NULL,
    "tweetsAccepted" INTEGER NOT NULL,
    "fleissKappa" REAL,
    "krippendorffAlpha" REAL,
    "averageObservedAgreement" REAL,
    "averageMajorityAgreement" REAL,
    CONSTRAINT "MetricSnapshot_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ClassifierModel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "schemeId" TEXT,
    "kind" TEXT NOT NULL,
    "trainedOn" JSONB NOT NULL,
    "scores" JSONB,
    "model" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ClassifierModel_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" JSONB,
    "secret" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "LabelScheme_slug_key" ON "LabelScheme"("slug");

-- CreateIndex
CREATE INDEX "Label_schemeId_position_idx" ON "Label"("schemeId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Label_schemeId_value_key" ON "Label"("schemeId", "value");

-- CreateIndex
CREATE UNIQUE INDEX "Event_slug_key" ON "Event"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "ImportBatch_jobId_key" ON "ImportBatch"("jobId");

-- CreateIndex
CREATE INDEX "ImportBatch_eventId_createdAt_idx" ON "ImportBatch"("eventId", "createdAt");

-- CreateIndex
CREATE INDEX "ImportBatch_eventId_fileHash_idx" ON "ImportBatch"("eventId", "fileHash");

-- CreateIndex
CREATE INDEX "ImportError_importId_line_idx" ON "ImportError"("importId", "line");

-- CreateIndex
CREATE INDEX "Tweet_eventId_role_status_idx" ON "Tweet"("eventId", "role", "status");

-- CreateIndex
CREATE INDEX "Tweet_eventId_createdAt_idx" ON "Tweet"("eventId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Tweet_eventId_externalId_key" ON "Tweet"("eventId", "externalId");

-- CreateIndex
CREATE INDEX "QualificationTest_eventId_idx" ON "QualificationTest"("eventId");

-- CreateIndex
CREATE UNIQUE INDEX "QualificationResult_testId_workerId_key" ON "QualificationResult"("testId", "workerId");

-- CreateIndex
CREATE INDEX "HitBatch_eventId_idx" ON "HitBatch"("eventId");

-- CreateIndex
CREATE UNIQUE INDEX "Hit_providerHitId_key" ON "Hit"("providerHitId");

-- CreateIndex
CREATE UNIQUE INDEX "Hit_uniqueRequestToken_key" ON "Hit"("uniqueRequestToken");

-- CreateIndex
CREATE INDEX "Hit_eventId_status_idx" ON "Hit"("eventId", "status");

-- CreateIndex
CREATE INDEX "Hit_status_lastSyncedAt_idx" ON "Hit"("status", "lastSyncedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Hit_eventId_seq_key" ON "Hit"("eventId", "seq");

-- CreateIndex
CREATE INDEX "HitItem_tweetId_idx" ON "HitItem"("tweetId");

-- CreateIndex
CREATE UNIQUE INDEX "HitItem_hitId_position_key" ON "HitItem"("hitId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "HitItem_hitId_tweetId_key" ON "HitItem"("hitId", "tweetId");

-- CreateIndex
CREATE UNIQUE INDEX "Worker_userId_key" ON "Worker"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Worker_provider_externalId_key" ON "Worker"("provider", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_providerAssignmentId_key" ON "Assignment"("providerAssignmentId");

-- CreateIndex
CREATE INDEX "Assignment_hitId_status_idx" ON "Assignment"("hitId", "status");

-- CreateIndex
CREATE INDEX "Assignment_workerId_idx" ON "Assignment"("workerId");

-- CreateIndex
CREATE INDEX "Assignment_status_autoApprovalTime_idx" ON "Assignment"("status", "autoApprovalTime");

-- CreateIndex
CREATE INDEX "Judgment_tweetId_idx" ON "Judgment"("tweetId");

-- CreateIndex
CREATE INDEX "Judgment_workerId_idx" ON "Judgment"("workerId");

-- CreateIndex
CREATE UNIQUE INDEX "Judgment_assignmentId_tweetId_key" ON "Judgment"("assignmentId", "tweetId");

-- CreateIndex
CREATE UNIQUE INDEX "AcceptedLabel_tweetId_key" ON "AcceptedLabel"("tweetId");

-- CreateIndex
CREATE INDEX "AcceptedLabel_eventId_label_idx" ON "AcceptedLabel"("eventId", "label");

-- CreateIndex
CREATE INDEX "Job_state_runAfter_idx" ON "Job"("state", "runAfter");

-- CreateIndex
CREATE INDEX "Job_eventId_createdAt_idx" ON "Job"("eventId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_eventId_at_idx" ON "AuditLog"("eventId", "at");

-- CreateIndex
CREATE INDEX "AuditLog_entityType_entityId_idx" ON "AuditLog"("entityType", "entityId");

-- CreateIndex
CREATE INDEX "CostEntry_eventId_kind_idx" ON "CostEntry"("eventId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "CostEntry_reference_key" ON "CostEntry"("reference");

-- CreateIndex
CREATE INDEX "MetricSnapshot_eventId_at_idx" ON "MetricSnapshot"("eventId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "ClassifierModel_name_version_key" ON "ClassifierModel"("name", "version");
