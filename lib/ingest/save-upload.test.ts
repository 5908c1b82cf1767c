import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { IMPORT_JOB_TYPE } from "./import-job";
import { saveUploadAndImport } from "./save-upload";
import { tempDataDirForTests } from "./testing/upload-dir";
import { createHumaidEvent } from "./testing/humaid-event";

const dataDir = tempDataDirForTests("accord-save-upload-");

const FILE =
  "tweet_id\ttweet_text\tclass_label\n" +
  "901646074527535105\tRoads flooded near downtown Houston, stay inside\tcaution_and_advice\n" +
  "901646074527535107\tShelter at the convention center needs volunteers tonight\trescue_volunteering_or_donation_effort\n";

function uploadRequest(eventId: string): Request {
  const query = new URLSearchParams({ eventId, kind: "tweets", name: "harvey.tsv" });
  const bytes = new TextEncoder().encode(FILE);
  return new Request(`http://localhost/api/imports?${query}`, {
    method: "POST",
    body: bytes,
    headers: { "content-length": String(bytes.length) },
  });
}

const registry = accordJobs({ loadClassifier: null });

describe.each(testFlavors())("uploads on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("two uploads of the same file at once make exactly one import; the other is told it is already being imported", async () => {
    const event = await createHumaidEvent(t.db, "harvey");
    const user = await t.db.user.create({ data: { email: "r@example.org", name: "R", passwordHash: "x" } });
    const userId = user.id;
    const replies = await Promise.all([
      saveUploadAndImport(t.db, uploadRequest(event.id), { userId }),
      saveUploadAndImport(t.db, uploadRequest(event.id), { userId }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400]);
    const refused = replies.find((r) => r.status === 400)!;
    const text = JSON.stringify(refused.body);
    expect(text).toMatch(/already being imported/);
    expect(text).not.toMatch(/prisma|sql|constraint/i);
    expect(await t.db.importBatch.count()).toBe(1);
    // Only the accepted upload's file is kept.
    expect(fs.readdirSync(path.join(dataDir, "uploads"))).toHaveLength(1);

    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const [batch] = await t.db.importBatch.findMany();
    expect(batch.status).toBe("completed");
    expect(batch.activeKey).toBeNull();

    // Once the first import has ended, the same file can be uploaded again (it then adds nothing).
    const later = await saveUploadAndImport(t.db, uploadRequest(event.id), { userId });
    expect(later.status).toBe(201);
    expect(await t.db.importBatch.count()).toBe(2);
  });
});
