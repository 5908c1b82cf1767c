import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteTemplatePath } from "@/lib/db/test-db";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { formatReport } from "@/lib/cli/commands/campaign";
import { parseSimulationWorkers, SIMULATION_JSON_KEYS, simulateCampaign, simulationJson, simulationTemplatePath, type CampaignSimulationResult } from "./simulate";

const exec = promisify(execFile);
const LABELS = HUMAID_LABELS.map((l) => l.value).filter((l) => l !== "dont_know_cant_judge");

let dir: string;
const file = (name: string) => path.join(dir, name);

/** `n` tweets (tweet_id,text[,label]) with labels spread over the scheme; gold ids start with 9. */
function writeTweets(name: string, n: number, { gold = false, withLabel = true }: { gold?: boolean; withLabel?: boolean } = {}) {
  const rows = Array.from({ length: n }, (_, i) => {
    const label = LABELS[(gold ? i * 3 : i) % LABELS.length];
    const id = `${gold ? 9 : 1}${String(i).padStart(18, "0")}`;
    const text = `"${gold ? "Gold" : "Field"} report ${i}: ${label.replace(/_/g, " ")}, ""quoted"" & <b>escaped</b>"`;
    return withLabel ? `${id},${text},${label}` : `${id},${text}`;
  });
  fs.writeFileSync(file(name), [withLabel ? "tweet_id,text,label" : "tweet_id,text", ...rows].join("\n") + "\n");
}

function writeTruth(name: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => `1${String(i).padStart(18, "0")},${LABELS[i % LABELS.length]}`);
  fs.writeFileSync(file(name), ["tweet_id,label", ...rows].join("\n") + "\n");
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-simulate-test-"));
  writeTweets("tweets.csv", 60);
  writeTweets("unlabelled.csv", 60, { withLabel: false });
  writeTruth("truth.csv", 60);
  writeTweets("gold.csv", 20, { gold: true });
  // The CLI copies a cached, freshly migrated template: seed it with the test run's template (same migrations).
  const cached = simulationTemplatePath();
  if (!fs.existsSync(cached)) {
    const tmp = `${cached}.${process.pid}.tmp`;
    fs.copyFileSync(sqliteTemplatePath(), tmp);
    fs.renameSync(tmp, cached);
  }
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  return exec(process.execPath, ["scripts/accord.mjs", "campaign", "simulate", ...args], { cwd: process.cwd(), env: { ...process.env }, maxBuffer: 4 * 1024 * 1024 });
}

describe("parseSimulationWorkers", () => {
  it("splits spammer between random and constant spammers and accepts the simulator's profiles", () => {
    expect(parseSimulationWorkers("careful:20,average:20,sloppy:5,spammer:5")).toEqual({ careful: 20, average: 20, sloppy: 5, "spammer-random": 3, "spammer-constant": 2 });
    expect(parseSimulationWorkers("spammer:1, spammer-constant:2")).toEqual({ "spammer-random": 1, "spammer-constant": 2 });
    expect(() => parseSimulationWorkers("experts:3")).toThrow(/"experts:3" is not <profile>:<count>/);
    expect(() => parseSimulationWorkers("careful:0")).toThrow(/no workers/);
  });
});

describe("accord campaign simulate", () => {
  let base: CampaignSimulationResult;
  let small: CampaignSimulationResult;

  it("runs the whole procedure to the end on a temporary database, and the figures add up", async () => {
    const tmpRoot = file("work");
    fs.mkdirSync(tmpRoot);
    base = await simulateCampaign({ tweetsFile: file("tweets.csv"), goldFile: file("gold.csv"), seed: 3, templateDb: sqliteTemplatePath(), tmpRoot });
    expect(Object.keys(simulationJson(base))).toEqual([...SIMULATION_JSON_KEYS]);
    expect([base.tweetsImported, base.goldImported, base.importErrorCount]).toEqual([60, 20, 0]);
    // Every HIT published and decided; every unknown tweet accepted or unresolved.
    expect(base.hitsPublished).toBe(3);
    expect(base.hitsApproved + base.hitsUnresolved).toBe(3);
    expect(base.tweetsAccepted + base.tweetsUnresolved).toBe(60);
    // 3 assignments per HIT, more for extended ones, never above 5.
    const decided = base.assignmentsApproved + base.assignmentsRejected;
    expect(decided).toBeGreaterThanOrEqual(9);
    expect(decided).toBeLessThanOrEqual(15);
    if (base.hitsExtended === 0) expect(decided).toBe(9);
    // The ledger: $0.50 + $0.10 fee per approved assignment, equal to what the simulator debited.
    expect([base.rewardsCents, base.feesCents]).toEqual([50 * base.assignmentsApproved, 10 * base.assignmentsApproved]);
    expect(base.costCents).toBe(base.simulatorDebitsCents);
    expect(base.costPerAcceptedLabelCents).toBeCloseTo(base.costCents / base.tweetsAccepted, 2);
    // Mostly careful and average workers with 2-of-3 acceptance: accepted labels are mostly right.
    expect(base.tweetsWithTruth).toBe(base.tweetsAccepted);
    expect(base.acceptedLabelAccuracy).toBeGreaterThan(0.8);
    expect(base.acceptedLabelAccuracy).toBeLessThanOrEqual(1);
    for (const k of ["fleissKappa", "krippendorffAlpha", "averageObservedAgreement", "averageMajorityAgreement"] as const) {
      expect(base[k]).not.toBeNull();
      expect(base[k] as number).toBeLessThanOrEqual(1);
    }
    expect(base.averageMajorityAgreement as number).toBeGreaterThanOrEqual(base.averageObservedAgreement as number);
    // The temporary database is gone.
    expect(fs.readdirSync(tmpRoot)).toEqual([]);
    // Every unknown tweet got 3 to 5 approved judgments, and the distribution adds up to the judgments.
    const byN = Object.entries(base.tweetsByJudgments).map(([n, c]) => [Number(n), c] as const);
    expect(byN.reduce((t, [, c]) => t + c, 0)).toBe(60);
    expect(byN.reduce((t, [n, c]) => t + n * c, 0)).toBe(base.judgments);
    for (const [n] of byN) expect(n).toBeLessThanOrEqual(5);
  });

  it("--settings with dynamic overlap: the same seed costs fewer judgments than without", async () => {
    const settingsFile = file("dynamic.json");
    fs.writeFileSync(settingsFile, JSON.stringify({ dynamicOverlap: { enabled: true } }));
    // careful workers: two judgments mostly agree, so most HITs can stop after two assignments
    const fixed = await simulateCampaign({ tweetsFile: file("tweets.csv"), goldFile: file("gold.csv"), seed: 3, workers: "careful:12", templateDb: sqliteTemplatePath() });
    const { stdout } = await cli(["--tweets", file("tweets.csv"), "--gold", file("gold.csv"), "--seed", "3", "--workers", "careful:12", "--settings", settingsFile, "--json"]);
    const dynamic = JSON.parse(stdout.trim()) as CampaignSimulationResult;
    expect(Object.keys(dynamic)).toEqual([...SIMULATION_JSON_KEYS]);
    const judgments = (r: { tweetsByJudgments: Record<string, number> }) => Object.entries(r.tweetsByJudgments).reduce((t, [n, c]) => t + Number(n) * c, 0);
    expect(judgments(fixed)).toBe(fixed.judgments);
    expect(judgments(dynamic)).toBeLessThan(judgments(fixed));
    expect(dynamic.costCents).toBeLessThan(fixed.costCents);
    // some tweets stopped at 2 judgments
    expect(dynamic.tweetsByJudgments["2"]).toBeGreaterThan(0);
  });

  it("--settings choosing the whole-record gold rule: the same seed rejects fewer HITs of workers near the threshold", async () => {
    const settingsFile = file("whole-record.json");
    fs.writeFileSync(settingsFile, JSON.stringify({ goldRule: "whole-record" }));
    const workers = "careful:3,average:6";
    const perHit = await simulateCampaign({ tweetsFile: file("tweets.csv"), goldFile: file("gold.csv"), seed: 4, workers, templateDb: sqliteTemplatePath() });
    const { stdout } = await cli(["--tweets", file("tweets.csv"), "--gold", file("gold.csv"), "--seed", "4", "--workers", workers, "--settings", settingsFile, "--json"]);
    const whole = JSON.parse(stdout.trim()) as CampaignSimulationResult;
    expect(Object.keys(whole)).toEqual([...SIMULATION_JSON_KEYS]);
    // Seed 4: a 70%-accurate worker's HIT falls below 7/10 once; over their record so far it is not likely below 70%.
    expect(perHit.assignmentsRejected).toBeGreaterThan(0);
    expect(whole.assignmentsRejected).toBeLessThan(perHit.assignmentsRejected);
  });

  it("is unchanged by injected ServiceFaults, with the truth from --truth instead of the tweets' labels", async () => {
    const r = await simulateCampaign({ tweetsFile: file("unlabelled.csv"), goldFile: file("gold.csv"), truthFile: file("truth.csv"), seed: 3, faults: 0.2, templateDb: sqliteTemplatePath() });
    expect(simulationJson(r)).toEqual(simulationJson(base));
  });

  it("reports no accuracy without true labels, and honours --hits, --workers and --reward", async () => {
    const r = await simulateCampaign({ tweetsFile: file("unlabelled.csv"), goldFile: file("gold.csv"), hits: 1, workers: "careful:6", rewardCents: 20, templateDb: sqliteTemplatePath() });
    small = r;
    expect([r.hitsPublished, r.tweetsNotPublished, r.acceptedLabelAccuracy, r.tweetsWithTruth]).toEqual([1, 40, null, 0]);
    expect(r.workers).toEqual({ careful: 6, average: 0, sloppy: 0, "spammer-random": 0, "spammer-constant": 0, "llm-echo": 0 });
    // 20 cents + a 4-cent fee per approved assignment.
    expect([r.rewardsCents, r.feesCents]).toEqual([20 * r.assignmentsApproved, 4 * r.assignmentsApproved]);
    const text = formatReport(r);
    expect(text).toMatch(/^campaign simulation \(seed 1; workers: careful 6\)\n/);
    expect(text).toContain("\n  HITs published                1 (3 assignments each at $0.20); 40 tweets left for a later batch\n");
    expect(text).toContain("\n  accepted-label accuracy       n/a (no true labels)\n");
    expect(text).toContain(`\n  assignments approved          ${r.assignmentsApproved}\n`);
    expect(text).toContain(`\n  cost                          $${(r.costCents / 100).toFixed(2)} (rewards $${(r.rewardsCents / 100).toFixed(2)}, fees $${(r.feesCents / 100).toFixed(2)})\n`);
  });

  it("prints exactly the same JSON object from the command line for the same options", async () => {
    const { stdout } = await cli(["--tweets", file("unlabelled.csv"), "--gold", file("gold.csv"), "--hits", "1", "--workers", "careful:6", "--reward", "20", "--json"]);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const json = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([...SIMULATION_JSON_KEYS]);
    expect(json).toEqual(simulationJson(small));
    expect(json.acceptedLabelAccuracy).toBeNull();
  });

  it("explains what is wrong with the input", async () => {
    writeTweets("few-gold.csv", 5, { gold: true });
    await expect(simulateCampaign({ tweetsFile: file("tweets.csv"), goldFile: file("few-gold.csv"), templateDb: sqliteTemplatePath() })).rejects.toThrow(
      "The qualification test needs 10 gold tweets; this event has 5. Upload more gold first.",
    );
    await expect(simulateCampaign({ tweetsFile: file("missing.csv"), goldFile: file("gold.csv") })).rejects.toThrow(`cannot read the tweets file ${file("missing.csv")}: no such file`);
    const usage = (await cli(["--gold", file("gold.csv")]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^accord campaign: --tweets FILE is required/);
  });
});
