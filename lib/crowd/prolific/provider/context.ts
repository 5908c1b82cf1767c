import { createHash } from "node:crypto";
import type { ProlificClient } from "../api-client";
import type { Study } from "../api-types";
import type { ProlificProviderStore } from "../provider-store";

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
  /** Prolific's test mode: a HIT's draft is published as a test study (a copy only the test participant may take). */
  testMode?: boolean;
  now?: () => Date;
};

/** What every part of the provider works with: its options, with the clock resolved. */
export type ProlificContext = Omit<ProlificProviderOptions, "now"> & { now: () => Date };

/** Prolific's three URL placeholders, appended to Accord's page for a study. */
export const PLACEHOLDERS = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

/** A completion code of 8 characters derived from what it completes (stable across retries). */
export function codeFor(...parts: string[]): string {
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 8).toUpperCase();
}

/** The project's study with this internal name (how a retry finds what an earlier attempt created). */
export async function findStudy(ctx: ProlificContext, internalName: string): Promise<Study | null> {
  return (await ctx.client.listProjectStudies(ctx.projectId)).find((s) => s.internal_name === internalName) ?? null;
}

/** The Accord HIT id of a study Accord published (`accord:<hit id>`), else null. */
export function hitIdOf(study: Study): string | null {
  return study.internal_name?.startsWith("accord:") ? study.internal_name.slice("accord:".length) : null;
}
