import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { CliError } from "../errors";
import { runExport } from "./export";

function capture() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString("utf8")));
  return { stream, text: () => text };
}

describe("accord export", () => {
  let t: TestDb;
  let ev: EventFixture;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-export-"));
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    ev = await seedEventFixture(t.db, { slug: "cli_quake", tweets: 120, gold: 20, campaign: { hits: 5, seed: 9 } });
  });
  afterAll(async () => {
    await t?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prints the agreed labels CSV, and writes the other exports to files", async () => {
    const out = capture();
    expect(await runExport(["labels", "--event", "cli_quake"], { db: t.db, stdout: out.stream, stderr: capture().stream })).toBe(0);
    const rows = parse(out.text()) as string[][];
    expect(rows[0]).toEqual(["tweet_id", "tweet_text", "class_label", "event", "agreement", "judgments", "votes"]);
    expect(rows.length - 1).toBe(ev.campaign!.acceptedTweets);

    const file = path.join(dir, "judgments.csv");
    const err = capture();
    expect(await runExport(["judgments", "--event", "cli_quake", "--out", file], { db: t.db, stdout: capture().stream, stderr: err.stream })).toBe(0);
    expect((parse(fs.readFileSync(file, "utf8")) as string[][]).length - 1).toBe(ev.campaign!.judgments);
    expect(err.text()).toContain("wrote");
    // The procedure manifest beside the CSV (the CSV itself stays a plain CSV).
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "judgments.manifest.json"), "utf8"));
    expect(manifest.exportSeed).toBeNull();
    expect(manifest.events.map((e: { slug: string }) => e.slug)).toEqual(["cli_quake"]);
    expect(manifest.events[0].settings.assignmentApproval).toEqual({ num: 7, den: 10 });
    expect(manifest.events[0].goldSha256).toMatch(/^[0-9a-f]{64}$/);

    const zipFile = path.join(dir, "humaid.zip");
    expect(await runExport(["humaid", "--event", "cli_quake", "--out", zipFile, "--seed", "7"], { db: t.db, stdout: capture().stream, stderr: capture().stream })).toBe(0);
    expect(Object.keys(unzipSync(fs.readFileSync(zipFile))).sort()).toEqual(["README.md", "events/cli_quake/cli_quake_dev.tsv", "events/cli_quake/cli_quake_test.tsv", "events/cli_quake/cli_quake_train.tsv", "manifest.json"]);

    const audit = capture();
    expect(await runExport(["audit"], { db: t.db, stdout: audit.stream, stderr: capture().stream })).toBe(0);
    expect((parse(audit.text()) as string[][]).length - 1).toBe(await t.db.auditLog.count());
    const compare = capture();
    expect(await runExport(["compare"], { db: t.db, stdout: compare.stream, stderr: capture().stream })).toBe(0);
    expect(compare.text().split("\n")[1]).toMatch(/^cli_quake,/);
  });

  it("refuses bad usage with a clear message", async () => {
    const io = { db: t.db, stdout: capture().stream, stderr: capture().stream };
    await expect(runExport(["labels"], io)).rejects.toThrow(/--event SLUG is required/);
    await expect(runExport(["labels", "--event", "nope"], io)).rejects.toThrow(/no event with slug "nope"/);
    await expect(runExport(["humaid", "--event", "cli_quake"], io)).rejects.toThrow(/--out FILE.zip/);
    await expect(runExport(["humaid", "--all", "--event", "cli_quake", "--out", "x.zip"], io)).rejects.toThrow(/--all/);
    await expect(runExport(["everything"], io)).rejects.toBeInstanceOf(CliError);
    expect(await runExport([], io)).toBe(2);
  });
});
