import "server-only";
// Shared by the reliability and multi-process tests (not used by the product).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from "@/lib/crowd/simulator/server";
import { addTextKeys } from "@/lib/crowd/simulator/truth";
import { testWorker } from "@/lib/crowd/test-fixtures";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { insertMany } from "@/lib/db/bulk";
import type { Prisma } from "@/lib/db/client";
import { PROVIDER_KIND, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { createTestDb } from "@/lib/db/test-db";
import type { DbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { type CampaignFixture, LABELS } from "./test-fixture";

/**
 * A campaign under test like setupCampaign (test-fixture.ts), with the tweets inserted in bulk (thousands of
 * them), the simulator's URL stored in the settings (so that child processes find it through getProvider), and
 * extra simulator options (faults, workers).
 */
export async function setupBulkCampaign({
  flavor = "sqlite",
  unknown,
  gold = 20,
  workerIds = [],
  simulator = {},
  settings = {},
}: {
  flavor?: DbFlavor;
  unknown: number;
  gold?: number;
  workerIds?: string[];
  simulator?: Omit<StartSimulatorOptions, "clock">;
  settings?: Record<string, unknown>;
}): Promise<CampaignFixture> {
  const t = await createTestDb(flavor);
  const db = t.db;
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: { slug: "reliability", name: "Reliability 2026", type: "flood", schemeId, provider: PROVIDER_KIND.mturk, locations: [], settings: settings as Prisma.InputJsonValue, filters: {} },
  });
  const rows = [
    ...Array.from({ length: unknown }, (_, i) => ({ role: TWEET_ROLE.unknown, i, label: LABELS[i % LABELS.length] })),
    ...Array.from({ length: gold }, (_, i) => ({ role: TWEET_ROLE.gold, i, label: LABELS[(i * 3) % LABELS.length] })),
  ];
  const externalId = (r: { role: string; i: number }) => `${r.role === TWEET_ROLE.gold ? 9 : 1}${String(r.i).padStart(17, "0")}`;
  const labelOf = new Map(rows.map((r) => [externalId(r), r.label]));
  const now = new Date();
  await insertMany(
    db,
    "Tweet",
    rows.map((r, k) => ({
      eventId: event.id,
      externalId: externalId(r),
      text: `${r.role} tweet ${r.i} about ${r.label.replace(/_/g, " ")}`,
      role: r.role,
      goldLabel: r.role === TWEET_ROLE.gold ? r.label : null,
      sourceLabel: r.role === TWEET_ROLE.unknown ? r.label : null,
      status: TWEET_STATUS.pending,
      createdAt: new Date(now.getTime() + k), // distinct creation times: HITs are packed in this order
    })),
  );
  const truth = new Map<string, string>();
  const stored = await db.tweet.findMany({ where: { eventId: event.id }, select: { id: true, externalId: true, text: true } });
  for (const t of stored) truth.set(t.id, labelOf.get(t.externalId) as string);
  const clock = new ManualClock();
  const { workers, ...rest } = simulator;
  // Simulated workers answer relative to the true labels; HITs show text, not ids, so they know a tweet by its text.
  const sim = await startSimulator({ seed: 7, clock, workers: workers ?? workerIds.map((id) => testWorker(id)), truth: addTextKeys(labelOf, stored), ...rest });
  await db.setting.create({ data: { key: "crowd.simulatorUrl", value: sim.url } });
  const provider = createMturkProvider({ mode: "simulator", simulatorUrl: sim.url, maxAttempts: 10 });
  return {
    t,
    db,
    sim,
    clock,
    provider,
    jobs: accordJobs({ provider }),
    eventId: event.id,
    truth,
    async close() {
      await sim.stop();
      await t.cleanup();
    },
  };
}

export type CallLog = {
  /** Per assignment id: decision requests received, and those the simulator applied (approve or reject). */
  decisions: Map<string, { attempts: number; applied: number }>;
  /** CreateHIT requests applied, and those answered HitAlreadyExists (a retry after a lost response). */
  createHit: { applied: number; alreadyExists: number };
  /** Called after each CreateHIT the simulator applied (before the response is sent). */
  afterCreateHit?: (appliedSoFar: number) => void;
};

/** Records what reaches the simulator's service (after fault injection, before the response is written). */
export function recordCalls(sim: RunningSimulator): CallLog {
  const log: CallLog = { decisions: new Map(), createHit: { applied: 0, alreadyExists: 0 } };
  const original = sim.service.call.bind(sim.service);
  sim.service.call = (operation: string, body: unknown) => {
    const decision = operation === "ApproveAssignment" || operation === "RejectAssignment";
    const id = decision ? String((body as { AssignmentId?: string }).AssignmentId) : "";
    const entry = decision ? (log.decisions.get(id) ?? log.decisions.set(id, { attempts: 0, applied: 0 }).get(id)!) : null;
    if (entry) entry.attempts++;
    try {
      const result = original(operation, body);
      if (entry) entry.applied++;
      if (operation === "CreateHIT") {
        log.createHit.applied++;
        log.afterCreateHit?.(log.createHit.applied);
      }
      return result;
    } catch (err) {
      if (operation === "CreateHIT" && (err as { turkErrorCode?: string }).turkErrorCode === "AWS.MechanicalTurk.HitAlreadyExists") log.createHit.alreadyExists++;
      throw err;
    }
  };
  return log;
}

/** What the simulator debited (rewards + fees of approved assignments and bonuses). */
export function simulatorDebits(sim: RunningSimulator): number {
  return sim.state.ledger.reduce((n, e) => n + e.amountCents + e.feeCents, 0);
}

export type Child = { proc: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; output: () => string };

/** Starts `node <args>` from the repository root with tsx (for TypeScript scripts) and the given environment. */
export function startChild(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: process.cwd(),
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ACCORD_MTURK_MODE: "simulator", ACCORD_SIMULATOR_URL: "", ACCORD_BUDGET_CAP_CENTS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  return { proc, exited, output: () => out };
}

export const ACCORD_CLI = path.join("scripts", "accord.mjs");

/** Polls `check` every `everyMs` until it returns true; throws with `what` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, what: string, { timeoutMs = 90_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {}) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
