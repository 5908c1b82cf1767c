import { execFileSync } from "node:child_process";
import { prepareTestTemplates } from "../lib/db/test-db";

// Vitest global setup: migrate the template databases once per run, and bring the built `accord` command
// (dist/cli) up to date once, so that the tests that run it as a process do not all rebuild it at once.
export default async function setup() {
  execFileSync(process.execPath, ["scripts/accord.mjs", "--help"], { stdio: "ignore" });
  await prepareTestTemplates();
}
