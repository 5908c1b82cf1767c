ALTER TABLE "MetricSnapshot" ADD COLUMN "scopes" JSONB;
