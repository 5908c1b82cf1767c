import { createHash, randomInt } from "node:crypto";
import { CrowdError } from "../../errors";
import type { ProlificClient } from "../api-client";
import type { Study } from "../api-types";
import type { ProlificProviderStore } from "../provider-store";
import type { StudyViews } from "./study-view";

export type ProlificMode = "simulator" | "production";

export type ProlificProviderOptions = {
  client: ProlificClient;
  mode: ProlificMode;
  workspaceId: string;
  projectId: string;
  /** Accord's participant page for a HIT (absolute URL); the provider appends the HIT and Prolific's placeholders. */
  taskUrl: string;
  /** Accord's participant page for a screening (qualification) study. */
  screeningUrl: string;
  store: ProlificProviderStore;
  /**
   * The fee Prolific charges on a reward or a bonus, as a share in basis points (fee and VAT together). Learned from
   * Prolific's cost calculator by `learnFeeBasisPoints`, so the ledger books what the workspace is debited.
   */
  feeBasisPoints: number;
  /** A screening study's reward, places and length (the qualification test is paid work on Prolific). */
  screening?: { rewardMinor: number; places: number; estimatedMinutes: number };
  /** How long a batch study's view (its status and submissions) is shared by its HITs' reads (default STUDY_VIEW_TTL_MS). */
  studyViewTtlMs?: number;
  /** Prolific's test mode: a HIT's draft is published as a test study (a copy only the test participant may take). */
  testMode?: boolean;
  now?: () => Date;
};

/** What every part of the provider works with: its options, with the clock resolved, its in-process locks and study views. */
export type ProlificContext = Omit<ProlificProviderOptions, "now"> & { now: () => Date; locks: Map<string, Promise<unknown>>; views: StudyViews };

/** Runs `fn` after every earlier call with the same key in this process has settled (publish lanes share a batch's study). */
export function serialized<T>(ctx: ProlificContext, key: string, fn: () => Promise<T>): Promise<T> {
  const prior = ctx.locks.get(key) ?? Promise.resolve();
  const run = prior.then(fn, fn);
  const tail = run.catch(() => undefined);
  ctx.locks.set(key, tail);
  void tail.then(() => {
    if (ctx.locks.get(key) === tail) ctx.locks.delete(key);
  });
  return run;
}

/**
 * A batch is one study; each of its HITs is `<study id>:<hit id>` as Accord's providerHitId (unique per HIT, and
 * the study is what Prolific knows).
 */
export function hitRef(providerHitId: string): { studyId: string; hitId: string } {
  const at = providerHitId.indexOf(":");
  if (at <= 0 || at === providerHitId.length - 1) throw new CrowdError(`"${providerHitId}" is not a HIT Accord published on Prolific (expected <study id>:<hit id>).`, "not_found");
  return { studyId: providerHitId.slice(0, at), hitId: providerHitId.slice(at + 1) };
}

export const providerHitIdOf = (studyId: string, hitId: string) => `${studyId}:${hitId}`;

/** Prolific's three URL placeholders, appended to Accord's page for a study. */
export const PLACEHOLDERS = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

/** Letters and digits without the look-alikes 0/O and 1/I/L (participants may type a code). */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * A completion code only Accord knows: 12 characters drawn from a CSPRNG (about 59 bits), made once per study and
 * stored with it in Accord's database (a retry reads the stored code back, so it stays stable).
 */
export function newCompletionCode(): string {
  let code = "";
  for (let i = 0; i < 12; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/**
 * The code Accord derived from public values before codes were random (forgeable: kept only for studies already
 * published with it, whose records carry no code of their own).
 */
export function legacyCode(...parts: string[]): string {
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 8).toUpperCase();
}

/** The project's study with this internal name (how a retry finds what an earlier attempt created). */
export async function findStudy(ctx: ProlificContext, internalName: string): Promise<Study | null> {
  return (await ctx.client.listProjectStudies(ctx.projectId)).find((s) => s.internal_name === internalName) ?? null;
}

export const BATCH_PREFIX = "accord-batch:";

/** The Accord batch of a study Accord published (`accord-batch:<batch id>`), else null. */
export function batchKeyOf(study: Pick<Study, "internal_name">): string | null {
  return study.internal_name?.startsWith(BATCH_PREFIX) ? study.internal_name.slice(BATCH_PREFIX.length) : null;
}
