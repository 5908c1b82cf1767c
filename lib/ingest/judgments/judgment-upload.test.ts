import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { tempDataDirForTests } from "../testing/upload-dir";
import { uploadDir } from "../uploads";
import { uploadAndPreview } from "./judgment-upload";
import { PREVIEW_BYTES } from "./preview";
import { crowdflowerReport } from "./testing/fixtures";

tempDataDirForTests("accord-judgment-upload-");

describe("judgment upload preview", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => t.cleanup());

  const post = (eventId: string, text: string) => new Request(`http://localhost/api/judgment-imports/preview?eventId=${eventId}&name=report.csv`, { method: "POST", body: text });

  it("previews only the start of a large upload, saying so; the whole file stays for the job", async () => {
    const schemeId = await ensureHumaidScheme(t.db);
    const event = await t.db.event.create({ data: { slug: "big", name: "big", type: "hurricane", schemeId, settings: {}, filters: {}, locations: [] } });
    const text = crowdflowerReport({ units: 2_000 });
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * PREVIEW_BYTES);
    const reply = await uploadAndPreview(t.db, post(event.id, text));
    expect(reply.status).toBe(200);
    const preview = reply.body.preview as { complete: boolean; rows: number; rowsNote: string; format: string; sample: unknown[] };
    expect(preview.format).toBe("crowdflower");
    expect(preview.complete).toBe(false);
    expect(preview.rows).toBeGreaterThan(100);
    expect(preview.rows).toBeLessThan(6_001);
    expect(preview.rowsNote).toMatch(/^the first [\d,]+ rows \(of the file's first 256 KB; the import reads them all\)$/);
    expect(preview.sample).toHaveLength(5);
    expect(fs.statSync(`${uploadDir()}/${reply.body.upload as string}`).size).toBe(Buffer.byteLength(text));

    const small = await uploadAndPreview(t.db, post(event.id, crowdflowerReport()));
    expect(small.body.preview).toMatchObject({ complete: true, rows: 37, rowsNote: "37 rows" });

    const invalid = await uploadAndPreview(t.db, post(event.id, 'a,b\n1,"2\n'));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^The file is not valid CSV \(Quote Not Closed/);
  });
});
