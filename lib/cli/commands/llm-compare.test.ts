import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { LLM_COMPARE_JSON_KEYS, type LlmCompareJson } from "@/lib/llm-compare/report";
import { seedLlmRun } from "@/lib/llm-compare/seed-llm-run";
import { CliError } from "../errors";
import { runLlmCompare } from "./llm-compare";

function capture() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString("utf8")));
  return { stream, text: () => text };
}

describe("accord llm compare", () => {
  let t: TestDb;
  let ev: EventFixture;
  let echo: string[];
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    ev = await seedEventFixture(t.db, { slug: "cli_llm", tweets: 600, gold: 30, campaign: { hits: 30, seed: 5 } });
    await seedEventFixture(t.db, { slug: "cli_nollm", tweets: 20, gold: 5, idBase: 1_700_000_000_000_000_000n });
    echo = (await seedLlmRun(t.db, { eventId: ev.eventId, truth: ev.truth, seed: 3, echoWorkers: 2 })).echoWorkerIds;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("prints the documented JSON: its keys in order, the echo workers flagged, figures that add up", async () => {
    const out = capture();
    expect(await runLlmCompare(["--event", "cli_llm", "--json"], { db: t.db, stdout: out.stream })).toBe(0);
    const r = JSON.parse(out.text()) as LlmCompareJson;
    expect(Object.keys(r)).toEqual([...LLM_COMPARE_JSON_KEYS]);
    expect(r.event).toBe("cli_llm");
    expect(r.run?.model).toBe("accord-sim-1");
    expect(r.confusion.flat().reduce((a, b) => a + b, 0)).toBe(r.tweets.compared);
    expect(r.tweets.compared).toBe(r.tweets.accepted);
    expect(r.kappa).toBeGreaterThan(0.5);
    expect(r.kappaInterval![0]).toBeLessThanOrEqual(r.kappa!);
    expect(r.goldAccuracy.llm.total).toBe(30);
    const workers = await t.db.worker.findMany({ where: { id: { in: echo } }, select: { externalId: true } });
    expect(r.echo.workers.filter((w) => w.flagged).map((w) => w.workerId).sort()).toEqual(workers.map((w) => w.externalId).sort());
    const flagged = r.echo.workers.find((w) => w.flagged)!;
    expect(Object.keys(flagged)).toEqual(["workerId", "crowd", "disagreementTweets", "echoes", "expectedEchoes", "goldCorrect", "goldTotal", "tested", "p", "pAdjusted", "flagged", "evidence"]);
    expect(Object.keys(flagged.evidence[0])).toEqual(["tweetId", "text", "accepted", "llm", "label"]);
    expect(r.cost.llm!.currency).toBe("USD");
    expect(r.cost.crowd[0].perAcceptedLabel).toBeGreaterThan(0);
  });

  it("prints a summary without --json, and says how to add a run when there is none", async () => {
    const out = capture();
    await runLlmCompare(["--event", "cli_llm"], { db: t.db, stdout: out.stream });
    expect(out.text()).toMatch(/Cohen's κ\s+0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]/);
    expect(out.text()).toContain("2 flagged at α = 0.05 (BH)");
    const none = capture();
    await runLlmCompare(["--event", "cli_nollm", "--json"], { db: t.db, stdout: none.stream });
    const r = JSON.parse(none.text()) as LlmCompareJson;
    expect([r.run, r.kappa, r.cost.llm, r.echo.tested]).toEqual([null, null, null, 0]);
    const text = capture();
    await runLlmCompare(["--event", "cli_nollm"], { db: t.db, stdout: text.stream });
    expect(text.text()).toContain("no finished LLM run yet");
  });

  it("refuses a missing or unknown event and bad options", async () => {
    await expect(runLlmCompare(["--json"], { db: t.db, stdout: capture().stream })).rejects.toThrow(/--event SLUG is required/);
    await expect(runLlmCompare(["--event", "nope"], { db: t.db, stdout: capture().stream })).rejects.toThrow(/no event with slug "nope"/);
    await expect(runLlmCompare(["--event", "cli_llm", "--alpha", "2"], { db: t.db, stdout: capture().stream })).rejects.toBeInstanceOf(CliError);
  });
});
