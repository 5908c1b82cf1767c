-- AlterTable: work approved (paid) but excluded from agreement, labels and exports by the crowd's policy, and why
ALTER TABLE "Assignment" ADD COLUMN "excludedReason" TEXT;

-- AlterTable: the event's crowd-policy settings (null: the crowd's defaults)
ALTER TABLE "Event" ADD COLUMN "crowdPolicy" JSONB;
