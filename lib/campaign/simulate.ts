import "server-only";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MTurkClient, type MTurkClientConfig } from "@aws-sdk/client-mturk";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { MTURK_REGION } from "@/lib/crowd/mturk/client";
import { MturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { startSimulator, type RunningSimulator } from "@/lib/crowd/simulator/server";
import { addTextKeys } from "@/lib/crowd/simulator/truth";
import { WORKER_PROFILES, type WorkerMix, type WorkerProfileName } from "@/lib/crowd/simulator/workers";
import { createDb, type Db } from "@/lib/db/client";
import { migrateDatabase, SQLITE_PAGE_SIZE } from "@/lib/db/migrate";
import { UserError } from "@/lib/errors";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { createImport } from "@/lib/ingest/import-job";
import { createLabelMatcher } from "@/lib/ingest/validate";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { encodeJudgments, type Judgment } from "@/lib/metrics/judgments";
import { eventAgreementReport } from "@/lib/metrics/report";
import { initialAssignments } from "@/lib/procedure/dynamic-overlap";
import { parseProcedureSettings, type ProcedureSettings } from "@/lib/procedure/settings";
import { publishDefaultsSchema } from "@/lib/crowd/mturk/settings";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { ACTIVE_HIT_STATUSES, ASSIGNMENT_STATUS, HIT_STATUS, IMPORT_STATUS, type ImportKind, PROVIDER_KIND, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { flushSyncFollowUps, runDeferredFollowUps } from "./sync/follow-ups";
import { syncHit } from "./sync/pass";
import type { SyncFollowUps } from "./sync/types";

/**
 * `accord campaign simulate`: the whole procedure — import, qualification test, publish, simulated workers,
 * sync decisions, extra assignments — against the MTurk simulator running in this process, on a temporary
 * SQLite database that is deleted afterwards. Nothing is spent; researchers use it to choose rewards and
 * thresholds before a real campaign.
 *
 * Deterministic for a given seed: the simulator runs on a manual clock that this driver advances (workers act
 * only when simulated time moves), HITs are published one at a time and synced in HIT order, and the agreement
 * uses the judgments in their (simulated) submission order. Injected ServiceFaults only cause retries.
 */

/** The worker mix used when none is given (the issue's example): 50 workers. */
export const DEFAULT_SIMULATION_WORKERS = "careful:20,average:20,sloppy:5,spammer:5";

/**
 * The JSON keys of `accord campaign simulate --json`, in their documented order.
 */
export const SIMULATION_JSON_KEYS = [
  "hitsPublished",
  "hitsApproved",
  "hitsExtended",
  "assignmentsApproved",
  "assignmentsRejected",
  "tweetsAccepted",
  "tweetsUnresolved",
  "fleissKappa",
  "krippendorffAlpha",
  "averageObservedAgreement",
  "averageMajorityAgreement",
  "costCents",
  "costPerAcceptedLabelCents",
  "acceptedLabelAccuracy",
  "tweetsByJudgments",
] as const;

export type SimulationJson = {
  hitsPublished: number;
  hitsApproved: number;
  hitsExtended: number;
  assignmentsApproved: number;
  assignmentsRejected: number;
  tweetsAccepted: number;
  tweetsUnresolved: number;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
  costCents: number;
  costPerAcceptedLabelCents: number | null;
  acceptedLabelAccuracy: number | null;
  /** Unknown tweets by their number of approved judgments, e.g. {"3": 180, "4": 12, "5": 8}. */
  tweetsByJudgments: Record<string, number>;
};

export type CampaignSimulationResult = SimulationJson & {
  /** Rows stored by the imports (unknown tweets and gold) and rows refused with a per-row error. */
  tweetsImported: number;
  goldImported: number;
  importErrors: Array<{ file: "tweets" | "gold"; line: number; reason: string }>;
  importErrorCount: number;
  /** Unknown tweets that did not go into a HIT (fewer than a HIT's worth left, or --hits). */
  tweetsNotPublished: number;
  hitsUnresolved: number;
  assignmentsPerHit: number;
  rewardCents: number;
  rewardsCents: number;
  feesCents: number;
  /** What the simulator debited from the requester's balance (equals costCents: one ledger, two views). */
  simulatorDebitsCents: number;
  /** Accepted tweets with a true label (the base of acceptedLabelAccuracy). */
  tweetsWithTruth: number;
  /** Judgments behind the agreement figures (approved judgments of unknown tweets). */
  judgments: number;
  workers: Record<WorkerProfileName, number>;
  seed: number;
  faults: number;
  simulatedSeconds: number;
  /** Retried sync passes after provider errors (faults that exhausted the SDK's retries). */
  syncErrors: number;
};

export type SimulateCampaignOptions = {
  tweetsFile: string;
  goldFile: string;
  truthFile?: string;
  /** Worker mix, e.g. "careful:20,average:20,sloppy:5,spammer:5" (see parseSimulationWorkers). */
  workers?: string;
  /** HITs to publish (default: as many as the tweets fill). */
  hits?: number;
  seed?: number;
  /** Fraction (0 ≤ f < 1) of simulator requests answered with a ServiceFault (retried by the SDK). */
  faults?: number;
  rewardCents?: number;
  /** The event's procedure settings (the same JSON as an event's settings; every rule), defaults when absent. */
  settings?: unknown;
  /** A freshly migrated SQLite file to copy (default: a cached template built by migrateDatabase). */
  templateDb?: string;
  /** Where the temporary database is created (and removed at the end; default: the OS temp dir). */
  tmpRoot?: string;
  /** Progress lines (what is happening now). */
  onProgress?: (message: string) => void;
};

const optionsSchema = z.object({
  tweetsFile: z.string().min(1),
  goldFile: z.string().min(1),
  truthFile: z.string().min(1).optional(),
  workers: z.string().min(1).default(DEFAULT_SIMULATION_WORKERS),
  hits: z.number().int().min(1).optional(),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  faults: z.number().min(0).lt(1).default(0),
  rewardCents: z.number().int().min(1).max(10_000).optional(),
  settings: z.unknown().optional(),
  templateDb: z.string().min(1).optional(),
  tmpRoot: z.string().min(1).optional(),
});

/** Simulated campaigns start here (a fixed time, ahead of the real clock, so that runs repeat exactly). */
export const SIMULATION_START_MS = Date.UTC(2100, 0, 4, 9, 0, 0);
/** How far the driver moves simulated time between two sync passes (at most; idle time is skipped). */
const STEP_MS = 60_000;
/** A campaign that has not finished after this much simulated time is stuck (it cannot happen with expiring HITs). */
const MAX_SIMULATED_MS = 120 * 24 * 3600 * 1000;
const MAX_CONSECUTIVE_SYNC_FAILURES = 20;

/**
 * Worker mix of the CLI: `<profile>:<count>` pairs. Profiles are the simulator's (careful, average, sloppy,
 * spammer-random, spammer-constant, llm-echo) plus `spammer`, which is split between the two spammer kinds (random
 * answers get the odd one: spammer:5 → 3 spammer-random + 2 spammer-constant).
 */
export function parseSimulationWorkers(spec: string): WorkerMix {
  const mix: WorkerMix = {};
  const add = (name: WorkerProfileName, n: number) => {
    if (n > 0) mix[name] = (mix[name] ?? 0) + n;
  };
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z-]+):(\d+)$/.exec(part);
    const known = m && (m[1] === "spammer" || Object.hasOwn(WORKER_PROFILES, m[1]));
    if (!m || !known) {
      throw new UserError(`"${part}" is not <profile>:<count> with a profile among ${[...Object.keys(WORKER_PROFILES), "spammer"].join(", ")}.`, "invalid_workers");
    }
    const n = Number(m[2]);
    if (m[1] === "spammer") {
      add("spammer-random", Math.ceil(n / 2));
      add("spammer-constant", Math.floor(n / 2));
    } else add(m[1] as WorkerProfileName, n);
  }
  const total = Object.values(mix).reduce((a, b) => a + (b ?? 0), 0);
  if (total === 0) throw new UserError("The worker mix has no workers (e.g. careful:20,average:20,sloppy:5,spammer:5).", "invalid_workers");
  if (total > 5_000) throw new UserError(`The worker mix has ${total} workers; at most 5,000 are simulated.`, "invalid_workers");
  return mix;
}

/** The documented JSON object: exactly SIMULATION_JSON_KEYS, in order. */
export function simulationJson(r: SimulationJson): SimulationJson {
  return Object.fromEntries(SIMULATION_JSON_KEYS.map((k) => [k, r[k]])) as SimulationJson;
}

// ---- the temporary database --------------------------------------------------------------------

function repoRoot(): string {
  return fileURLToPath(new URL("../..", import.meta.url));
}

/** A hash of the committed SQLite migrations: the cached template is rebuilt when they change. */
function migrationsHash(root: string): string {
  const dir = path.join(root, "prisma", "sqlite", "migrations");
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, "migration.sql");
    if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** Where the freshly migrated template of this checkout's migrations is cached (in the OS temp dir). */
export function simulationTemplatePath(root = repoRoot()): string {
  return path.join(os.tmpdir(), `accord-simulate-template-${migrationsHash(root)}-p${SQLITE_PAGE_SIZE}.db`);
}

/** The migrated template (built once per checkout's migrations); copies of it are fresh databases. */
export async function ensureTemplate(): Promise<string> {
  const root = repoRoot();
  const template = simulationTemplatePath(root);
  if (fs.existsSync(template)) return template;
  // Build beside it and rename, so that a concurrent run never copies a half-built file.
  const building = `${template}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await migrateDatabase({ url: `file:${building}`, cwd: root });
    fs.renameSync(building, template);
  } finally {
    for (const suffix of ["", "-journal", "-wal", "-shm"]) fs.rmSync(building + suffix, { force: true });
  }
  return template;
}

// ---- inputs ------------------------------------------------------------------------------------

function assertReadable(file: string, what: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UserError(`cannot read the ${what} file ${file}: no such file`, "file_missing");
  }
  if (!stat.isFile()) throw new UserError(`cannot read the ${what} file ${file}: it is not a file`, "file_missing");
}

/** --truth: CSV with tweet_id,label (labels by value or display name of the scheme). */
function readTruthFile(file: string, match: (label: string) => string | null): Map<string, string> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(fs.readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Array<Record<string, string>>;
  } catch (err) {
    throw new UserError(`${file}: not valid CSV: ${err instanceof Error ? err.message : String(err)}`, "invalid_truth");
  }
  if (rows.length === 0) throw new UserError(`${file} has no rows (expected a CSV with the header tweet_id,label).`, "invalid_truth");
  if (!("tweet_id" in rows[0]) || !("label" in rows[0])) throw new UserError(`${file}: the truth file needs a header with the columns tweet_id and label.`, "invalid_truth");
  const truth = new Map<string, string>();
  rows.forEach((r, i) => {
    if (!r.tweet_id || !r.label) return;
    const value = match(r.label);
    if (value === null) throw new UserError(`${file}: line ${i + 2}: label "${r.label}" is not in the HumAID scheme.`, "invalid_truth");
    truth.set(r.tweet_id, value);
  });
  return truth;
}

async function importFile(db: Db, eventId: string, kind: ImportKind, file: string) {
  const { importId } = await createImport({ db, eventId, kind, fileName: path.basename(file), filePath: path.resolve(file) });
  await drainJobs(db, { registry: accordJobs(), types: [JOBS.import.type] });
  const batch = await db.importBatch.findUniqueOrThrow({
    where: { id: importId },
    select: { status: true, message: true, rowsStored: true, errorCount: true, errors: { orderBy: { line: "asc" }, take: 20, select: { line: true, reason: true } } },
  });
  if (batch.status !== IMPORT_STATUS.completed) throw new UserError(`${file}: ${batch.message ?? "the import failed"}`, "import_failed");
  return { stored: batch.rowsStored, errorCount: batch.errorCount, errors: batch.errors.map((e) => ({ file: kind, line: e.line, reason: e.reason })) };
}

/** The simulator's client: the real SDK, retrying faults at once (the simulator is in this process). */
function simulatorProvider(url: string): MturkProvider {
  const maxAttempts = 10;
  const token = (count: number) => ({ getRetryCount: () => count, getRetryDelay: () => 0 });
  const retryStrategy: NonNullable<MTurkClientConfig["retryStrategy"]> = {
    acquireInitialRetryToken: async () => token(0),
    refreshRetryTokenForRetry: async (t, info) => {
      if (info.errorType === "CLIENT_ERROR" || t.getRetryCount() + 1 >= maxAttempts) throw info.error ?? new Error("no more retries");
      await new Promise((resolve) => setImmediate(resolve));
      return token(t.getRetryCount() + 1);
    },
    recordSuccess: () => undefined,
  };
  const client = new MTurkClient({ region: MTURK_REGION, endpoint: url, credentials: { accessKeyId: "accord-simulate", secretAccessKey: "accord-simulate" }, maxAttempts, retryStrategy });
  return new MturkProvider({ client, mode: "simulator", endpoint: url });
}

// ---- the run -----------------------------------------------------------------------------------

export async function simulateCampaign(input: SimulateCampaignOptions): Promise<CampaignSimulationResult> {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) throw new UserError(`invalid options: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, "invalid_options");
  const opts = parsed.data;
  const progress = input.onProgress ?? (() => undefined);
  const mix = parseSimulationWorkers(opts.workers);
  assertReadable(opts.tweetsFile, "tweets");
  assertReadable(opts.goldFile, "gold");
  if (opts.truthFile) assertReadable(opts.truthFile, "truth");

  const dir = fs.mkdtempSync(path.join(opts.tmpRoot ?? os.tmpdir(), "accord-simulate-"));
  const held: { db?: Db; sim?: RunningSimulator } = {};
  try {
    const template = opts.templateDb ?? (await ensureTemplate());
    const dbFile = path.join(dir, "campaign.db");
    fs.copyFileSync(template, dbFile);
    held.db = createDb(`file:${dbFile}`);
    // A throwaway database: no need to wait for the disk on every commit.
    await held.db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await held.db.$queryRawUnsafe("PRAGMA synchronous = OFF");
    return await run(held.db, opts, mix, progress, (sim) => {
      held.sim = sim;
    });
  } finally {
    await held.sim?.stop().catch(() => undefined);
    await held.db?.$disconnect().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type ParsedOptions = z.infer<typeof optionsSchema>;

async function run(db: Db, opts: ParsedOptions, mix: WorkerMix, progress: (m: string) => void, started: (sim: RunningSimulator) => void): Promise<CampaignSimulationResult> {
  const schemeId = await ensureHumaidScheme(db);
  const labels = await db.label.findMany({ where: { schemeId }, orderBy: { position: "asc" }, select: { value: true, name: true } });
  const match = createLabelMatcher({ slug: "humaid", values: labels.map((l) => l.value), names: labels.map((l) => l.name) });
  const truthFromFile = opts.truthFile ? readTruthFile(opts.truthFile, match) : null;
  // The tweets are taken as given: the upload filters (dates, language, word count, near-duplicates) are off.
  const filters = { date: { enabled: false }, location: { enabled: false }, language: { enabled: false }, wordCount: { enabled: false }, duplicates: { enabled: false } };
  const settings = parseProcedureSettings(opts.settings);
  const event = await db.event.create({
    data: { slug: "simulated-campaign", name: "Simulated campaign", type: "other", schemeId, provider: PROVIDER_KIND.mturk, locations: [], settings, filters },
  });

  progress("importing tweets and gold");
  const tweets = await importFile(db, event.id, "tweets", opts.tweetsFile);
  const gold = await importFile(db, event.id, "gold", opts.goldFile);
  if (tweets.stored === 0) throw new UserError(`${opts.tweetsFile}: no tweet could be imported${tweets.errors[0] ? ` (line ${tweets.errors[0].line}: ${tweets.errors[0].reason})` : ""}.`, "no_tweets");

  // The truth oracle: gold labels, and for unknown tweets --truth or the tweets file's label column.
  const stored = await db.tweet.findMany({ where: { eventId: event.id }, select: { externalId: true, text: true, role: true, goldLabel: true, sourceLabel: true } });
  const truth = new Map<string, string>();
  for (const t of stored) {
    const label = t.role === TWEET_ROLE.gold ? t.goldLabel : truthFromFile ? truthFromFile.get(t.externalId) : t.sourceLabel;
    if (label) truth.set(t.externalId, label);
  }

  const clock = new ManualClock(SIMULATION_START_MS);
  const sim = await startSimulator({
    seed: opts.seed,
    clock,
    workers: mix,
    truth: addTextKeys(new Map(truth), stored), // HITs show text, not ids: workers know a tweet by it
    balanceCents: 10_000_000_000,
  });
  started(sim);
  const provider = simulatorProvider(sim.url);
  await db.setting.create({ data: { key: "crowd.simulatorUrl", value: sim.url } });

  progress("creating the qualification test");
  // Faults start after the qualification type exists: a CreateQualificationType whose response is lost cannot be
  // recovered by a retry (the name is taken, and the provider interface has no lookup by name).
  await createQualificationTest({ db, provider, eventId: event.id, seed: opts.seed });
  if (opts.faults > 0) sim.setFaults({ serviceFaultRate: opts.faults });

  const defaults = publishDefaultsSchema.parse({});
  const rewardCents = opts.rewardCents ?? defaults.rewardCents;
  await createHitBatch({
    db,
    eventId: event.id,
    provider,
    options: {
      hitCount: opts.hits ?? "all",
      rewardCents,
      lifetimeSeconds: defaults.lifetimeSeconds,
      durationSeconds: defaults.durationSeconds,
      autoApprovalSeconds: defaults.autoApprovalSeconds,
      title: defaults.title,
      description: defaults.description,
      keywords: defaults.keywords,
      seed: opts.seed,
    },
  });
  const hitsToPublish = await db.hit.count({ where: { eventId: event.id } });
  progress(`publishing ${hitsToPublish} HITs`);
  // One at a time: the simulator numbers HITs in creation order, and workers look at them in that order.
  const outcomes = await drainJobs(db, { registry: accordJobs({ provider, publishConcurrency: 1 }), types: [JOBS.publish.type] });
  if (outcomes.some((o) => o !== "succeeded")) {
    const job = await db.job.findFirst({ where: { type: JOBS.publish.type }, orderBy: { createdAt: "desc" }, select: { error: true } });
    throw new Error(`publishing failed: ${job?.error ?? outcomes.join(", ")}`);
  }

  progress("workers at work; syncing decisions");
  const syncErrors = await driveUntilDecided({ db, sim, clock, eventId: event.id, provider, progress });
  return report({ db, sim, eventId: event.id, opts, mix, truth, rewardCents, tweets, gold, syncErrors, settings });
}

/**
 * Moves simulated time forward a minute at a time (skipping idle stretches) and, after each move, syncs every
 * active HIT whose state on the simulator changed (new submissions, expiry, more assignments), in HIT order,
 * until every HIT is decided. A sync that fails (a fault that outlasted the SDK's retries) is retried.
 */
async function driveUntilDecided({
  db,
  sim,
  clock,
  eventId,
  provider,
  progress,
}: {
  db: Db;
  sim: RunningSimulator;
  clock: ManualClock;
  eventId: string;
  provider: MturkProvider;
  progress: (m: string) => void;
}): Promise<number> {
  const seen = new Map<string, string>();
  const signature = (providerHitId: string) => {
    const h = sim.state.hits[providerHitId];
    const c = sim.service.hitCounts(h);
    return `${sim.service.hitStatus(h)}|${h.MaxAssignments}|${c.submitted}|${c.completed}|${h.expiration}`;
  };
  let errors = 0;
  let failuresInARow = 0;
  let lastReport = 0;
  for (;;) {
    const active = await db.hit.findMany({
      where: { eventId, status: { in: ACTIVE_HIT_STATUSES } },
      orderBy: { seq: "asc" },
      select: { id: true, providerHitId: true },
    });
    if (active.length === 0) {
      await flushSyncFollowUps(db);
      return errors;
    }
    const followUps: SyncFollowUps = { workers: new Set(), events: new Set() };
    for (const hit of active) {
      const pid = hit.providerHitId as string;
      if (seen.get(hit.id) === signature(pid)) continue;
      try {
        await syncHit({ db, hitId: hit.id, provider, followUps });
        seen.set(hit.id, signature(pid));
        failuresInARow = 0;
      } catch (err) {
        errors++;
        seen.delete(hit.id);
        if (++failuresInARow >= MAX_CONSECUTIVE_SYNC_FAILURES) throw err;
      }
    }
    await runDeferredFollowUps(db, followUps, { force: false });
    if (failuresInARow > 0) continue; // retry the failed HITs before time moves on
    const now = clock.now();
    if (now - SIMULATION_START_MS > MAX_SIMULATED_MS) throw new Error(`the campaign did not finish within ${MAX_SIMULATED_MS / 86_400_000} simulated days`);
    if (now - lastReport >= 3_600_000) {
      lastReport = now;
      progress(`simulated ${Math.round((now - SIMULATION_START_MS) / 60_000)} min: ${active.length} HITs still open`);
    }
    // The next moment anything can change: a worker event, or a HIT expiring.
    let soonest = Infinity;
    const next = sim.service.nextEventTime();
    if (next !== undefined && next > now) soonest = next;
    for (const hit of active) {
      const expiry = sim.state.hits[hit.providerHitId as string].expiration;
      if (expiry >= now) soonest = Math.min(soonest, expiry + 1_000);
    }
    clock.set(Number.isFinite(soonest) ? Math.max(now + STEP_MS, soonest) : now + STEP_MS);
  }
}

async function report({
  db,
  sim,
  eventId,
  opts,
  mix,
  truth,
  rewardCents,
  tweets,
  gold,
  syncErrors,
  settings,
}: {
  settings: ProcedureSettings;
  db: Db;
  sim: RunningSimulator;
  eventId: string;
  opts: ParsedOptions;
  mix: WorkerMix;
  truth: Map<string, string>;
  rewardCents: number;
  tweets: Awaited<ReturnType<typeof importFile>>;
  gold: Awaited<ReturnType<typeof importFile>>;
  syncErrors: number;
}): Promise<CampaignSimulationResult> {
  const perHit = initialAssignments(settings);
  const [hits, assignments, accepted, tweetsUnresolved, notPublished, ledger] = await Promise.all([
    db.hit.findMany({ where: { eventId }, select: { status: true, maxAssignments: true, providerHitId: true } }),
    db.assignment.groupBy({ by: ["status"], where: { hit: { eventId } }, _count: { _all: true } }),
    db.acceptedLabel.findMany({ where: { eventId }, select: { label: true, tweet: { select: { externalId: true } } } }),
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.unresolved } }),
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending } }),
    db.costEntry.groupBy({ by: ["kind"], where: { eventId }, _sum: { amountCents: true } }),
  ]);
  const count = (s: string) => assignments.find((a) => a.status === s)?._count._all ?? 0;
  const sum = (k: string) => ledger.find((l) => l.kind === k)?._sum.amountCents ?? 0;
  const costCents = ledger.reduce((n, l) => n + (l._sum.amountCents ?? 0), 0);

  let withTruth = 0;
  let correct = 0;
  for (const a of accepted) {
    const t = truth.get(a.tweet.externalId);
    if (t === undefined) continue;
    withTruth++;
    if (t === a.label) correct++;
  }

  // Agreement over the approved judgments of unknown tweets, in simulated submission order (κ and observed
  // agreement on each tweet's first three, α and majority agreement on all).
  const rows = await db.judgment.findMany({
    where: { counted: true, isGold: false, tweet: { eventId } },
    select: { tweetId: true, label: true, worker: { select: { externalId: true } }, assignment: { select: { submitTime: true, providerAssignmentId: true } } },
  });
  rows.sort((a, b) => (a.assignment.submitTime?.getTime() ?? 0) - (b.assignment.submitTime?.getTime() ?? 0) || a.assignment.providerAssignmentId.localeCompare(b.assignment.providerAssignmentId) || a.tweetId.localeCompare(b.tweetId));
  const judgments: Judgment[] = rows.map((r) => ({ item: r.tweetId, annotator: r.worker.externalId, label: r.label }));
  const agreement = judgments.length > 0 ? eventAgreementReport(encodeJudgments(judgments, { duplicates: "first" })) : null;
  const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);
  const perTweet = new Map<string, number>();
  for (const r of rows) perTweet.set(r.tweetId, (perTweet.get(r.tweetId) ?? 0) + 1);
  const tweetsByJudgments: Record<string, number> = {};
  for (const n of [...perTweet.values()].sort((a, b) => a - b)) tweetsByJudgments[String(n)] = (tweetsByJudgments[String(n)] ?? 0) + 1;

  const debits = sim.state.ledger.reduce((n, e) => n + e.amountCents + e.feeCents, 0);
  const workers = Object.fromEntries((Object.keys(WORKER_PROFILES) as WorkerProfileName[]).map((p) => [p, mix[p] ?? 0])) as Record<WorkerProfileName, number>;
  return {
    hitsPublished: hits.filter((h) => h.providerHitId).length,
    hitsApproved: hits.filter((h) => h.status === HIT_STATUS.approved).length,
    hitsExtended: hits.filter((h) => h.maxAssignments > perHit).length,
    assignmentsApproved: count(ASSIGNMENT_STATUS.approved),
    assignmentsRejected: count(ASSIGNMENT_STATUS.rejected),
    tweetsAccepted: accepted.length,
    tweetsUnresolved,
    fleissKappa: finite(agreement?.fleissKappa),
    krippendorffAlpha: finite(agreement?.krippendorffAlpha),
    averageObservedAgreement: finite(agreement?.averageObservedAgreement),
    averageMajorityAgreement: finite(agreement?.averageMajorityAgreement),
    costCents,
    costPerAcceptedLabelCents: accepted.length > 0 ? Math.round((costCents / accepted.length) * 100) / 100 : null,
    acceptedLabelAccuracy: withTruth > 0 ? correct / withTruth : null,
    tweetsByJudgments,
    tweetsImported: tweets.stored,
    goldImported: gold.stored,
    importErrors: [...tweets.errors, ...gold.errors],
    importErrorCount: tweets.errorCount + gold.errorCount,
    tweetsNotPublished: notPublished,
    hitsUnresolved: hits.filter((h) => h.status === HIT_STATUS.unresolved).length,
    assignmentsPerHit: perHit,
    rewardCents,
    rewardsCents: sum("reward"),
    feesCents: sum("fee"),
    simulatorDebitsCents: debits,
    tweetsWithTruth: withTruth,
    judgments: judgments.length,
    workers,
    seed: opts.seed,
    faults: opts.faults,
    simulatedSeconds: Math.round((sim.clock.now() - SIMULATION_START_MS) / 1000),
    syncErrors,
  };
}
