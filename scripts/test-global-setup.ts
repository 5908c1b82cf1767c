import { prepareTestTemplates } from "../lib/db/test-db";

// Vitest global setup: migrate the template databases once per run.
export default async function setup() {
  await prepareTestTemplates();
}
