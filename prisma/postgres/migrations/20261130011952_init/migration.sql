-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'researcher',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "sessionVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastFailure" TIMESTAMP(3),
    "lockedUntil" TIMESTAMP(3),

    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "LabelScheme" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelScheme_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL,
    "schemeId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "startDate" TIMESTAMP(3),
    "endDate" TIMESTAMP(3),
    "locations" JSONB NOT NULL,
    "schemeId" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'mturk',
    "settings" JSONB NOT NULL,
    "filters" JSONB NOT NULL,
    "budgetCapCents" INTEGER,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportError" (
    "id" TEXT NOT NULL,
    "importId" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "column" TEXT,
    "reason" TEXT NOT NULL,
    "raw" TEXT,

    CONSTRAINT "ImportError_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tweet" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "lang" TEXT,
    "tweetedAt" TIMESTAMP(3),
    "userLocation" TEXT,
    "placeName" TEXT,
    "placeCountry" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "role" TEXT NOT NULL DEFAULT 'unknown',
    "goldLabel" TEXT,
    "sourceLabel" TEXT,
    "predictedLabel" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "duplicateOfId" TEXT,
    "importId" TEXT,
    "retiredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tweet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualificationTest" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QualificationTest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QualificationResult" (
    "id" TEXT NOT NULL,
    "testId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "answers" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QualificationResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HitBatch" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HitBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Hit" (
    "id" TEXT NOT NULL,
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
    "publishedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "decidedAt" TIMESTAMP(3),
    "lastSyncedAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "syncError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Hit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HitItem" (
    "id" TEXT NOT NULL,
    "hitId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "isGold" BOOLEAN NOT NULL,

    CONSTRAINT "HitItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
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
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL,
    "hitId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "providerAssignmentId" TEXT NOT NULL,
    "providerStatus" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "acceptTime" TIMESTAMP(3),
    "submitTime" TIMESTAMP(3),
    "autoApprovalTime" TIMESTAMP(3),
    "goldCorrect" INTEGER,
    "goldTotal" INTEGER,
    "decision" TEXT,
    "decisionReason" JSONB,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3),
    "decisionSentAt" TIMESTAMP(3),
    "feedback" TEXT,
    "answerRaw" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Judgment" (
    "id" TEXT NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "hitItemId" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "isGold" BOOLEAN NOT NULL,
    "correct" BOOLEAN,
    "counted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Judgment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AcceptedLabel" (
    "id" TEXT NOT NULL,
    "tweetId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "topVotes" INTEGER NOT NULL,
    "totalVotes" INTEGER NOT NULL,
    "votes" JSONB NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'majority',
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AcceptedLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
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
    "leaseUntil" TIMESTAMP(3),
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "eventId" TEXT,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT,
    "action" TEXT NOT NULL,
    "reason" TEXT,
    "details" JSONB,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CostEntry" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "hitId" TEXT,
    "assignmentId" TEXT,
    "workerId" TEXT,
    "kind" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CostEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MetricSnapshot" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "judgments" INTEGER NOT NULL,
    "tweetsAccepted" INTEGER NOT NULL,
    "fleissKappa" DOUBLE PRECISION,
    "krippendorffAlpha" DOUBLE PRECISION,
    "averageObservedAgreement" DOUBLE PRECISION,
    "averageMajorityAgreement" DOUBLE PRECISION,

    CONSTRAINT "MetricSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClassifierModel" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "schemeId" TEXT,
    "kind" TEXT NOT NULL,
    "trainedOn" JSONB NOT NULL,
    "scores" JSONB,
    "model" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClassifierModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" JSONB,
    "secret" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
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

-- AddForeignKey
ALTER TABLE "Label" ADD CONSTRAINT "Label_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportError" ADD CONSTRAINT "ImportError_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tweet" ADD CONSTRAINT "Tweet_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tweet" ADD CONSTRAINT "Tweet_importId_fkey" FOREIGN KEY ("importId") REFERENCES "ImportBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tweet" ADD CONSTRAINT "Tweet_duplicateOfId_fkey" FOREIGN KEY ("duplicateOfId") REFERENCES "Tweet"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualificationTest" ADD CONSTRAINT "QualificationTest_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualificationTest" ADD CONSTRAINT "QualificationTest_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualificationResult" ADD CONSTRAINT "QualificationResult_testId_fkey" FOREIGN KEY ("testId") REFERENCES "QualificationTest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QualificationResult" ADD CONSTRAINT "QualificationResult_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HitBatch" ADD CONSTRAINT "HitBatch_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Hit" ADD CONSTRAINT "Hit_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Hit" ADD CONSTRAINT "Hit_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "HitBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HitItem" ADD CONSTRAINT "HitItem_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HitItem" ADD CONSTRAINT "HitItem_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Worker" ADD CONSTRAINT "Worker_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgment" ADD CONSTRAINT "Judgment_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgment" ADD CONSTRAINT "Judgment_hitItemId_fkey" FOREIGN KEY ("hitItemId") REFERENCES "HitItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgment" ADD CONSTRAINT "Judgment_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgment" ADD CONSTRAINT "Judgment_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AcceptedLabel" ADD CONSTRAINT "AcceptedLabel_tweetId_fkey" FOREIGN KEY ("tweetId") REFERENCES "Tweet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AcceptedLabel" ADD CONSTRAINT "AcceptedLabel_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Job" ADD CONSTRAINT "Job_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CostEntry" ADD CONSTRAINT "CostEntry_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CostEntry" ADD CONSTRAINT "CostEntry_hitId_fkey" FOREIGN KEY ("hitId") REFERENCES "Hit"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CostEntry" ADD CONSTRAINT "CostEntry_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CostEntry" ADD CONSTRAINT "CostEntry_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MetricSnapshot" ADD CONSTRAINT "MetricSnapshot_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClassifierModel" ADD CONSTRAINT "ClassifierModel_schemeId_fkey" FOREIGN KEY ("schemeId") REFERENCES "LabelScheme"("id") ON DELETE SET NULL ON UPDATE CASCADE;
