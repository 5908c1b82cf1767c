-- AlterTable: the currency a batch's amounts are in, recorded when it is created
ALTER TABLE "HitBatch" ADD COLUMN "currency" TEXT;

-- Backfill: Prolific batches take the workspace currency recorded install-wide (else Prolific's own, GBP); the others USD
UPDATE "HitBatch" SET "currency" = CASE
  WHEN (SELECT "provider" FROM "Event" WHERE "Event"."id" = "HitBatch"."eventId") = 'prolific'
    THEN COALESCE((SELECT json_extract("value", '$.currency') FROM "Setting" WHERE "key" = 'prolific.workspaceCurrency'), 'GBP')
  ELSE 'USD'
END;
