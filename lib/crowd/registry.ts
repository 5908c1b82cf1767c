import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { CrowdDescriptor } from "./descriptor";
import { localCrowd } from "./local/descriptor";
import { mturkCrowd } from "./mturk/descriptor";
import { prolificCrowd } from "./prolific/descriptor";
import type { FeeRules } from "./provider";

/**
 * The crowd registry: every crowd Accord can reach, one descriptor each (lib/crowd/<crowd>/descriptor.ts). Code
 * outside lib/crowd asks it (name, modes, currency, fee rule, policy, where participants submit, the provider)
 * instead of branching on a provider kind. A new crowd is its folder and one line in CROWDS.
 */
const CROWDS: CrowdDescriptor[] = [mturkCrowd, prolificCrowd, localCrowd];

/** The default crowd: a new event's, and the fee rule of a provider that names no crowd. */
export const DEFAULT_CROWD: CrowdDescriptor = mturkCrowd;

/** Every registered crowd, in the order forms list them. */
export function listCrowds(): readonly CrowdDescriptor[] {
  return CROWDS;
}

/** The kinds of every registered crowd. */
export function crowdKinds(): string[] {
  return CROWDS.map((c) => c.kind);
}

/** The descriptor of a crowd kind, or undefined when no crowd of that kind is registered. */
export function findCrowd(kind: string): CrowdDescriptor | undefined {
  return CROWDS.find((c) => c.kind === kind);
}

/** The descriptor of a crowd kind; an unknown kind is a UserError naming it. */
export function crowdOf(kind: string): CrowdDescriptor {
  const crowd = findCrowd(kind);
  if (!crowd) throw new UserError(`Unknown crowd provider "${kind}".`);
  return crowd;
}

/**
 * Registers a crowd beyond the built-in ones (a plug-in, or a test's crowd); returns its removal. A kind may be
 * registered once.
 */
export function registerCrowd(crowd: CrowdDescriptor): () => void {
  if (findCrowd(crowd.kind)) throw new Error(`A crowd of kind "${crowd.kind}" is already registered.`);
  CROWDS.push(crowd);
  return () => {
    const i = CROWDS.indexOf(crowd);
    if (i >= 0) CROWDS.splice(i, 1);
  };
}

/**
 * The fee rule of a provider: its crowd's (given the rate the provider learned, when it has one). A provider that
 * names no registered crowd (a test's wrapper) keeps its own rules, else the default crowd's.
 */
export function feeRulesOf(provider?: { kind?: string; fees?: FeeRules }): FeeRules {
  const crowd = provider?.kind ? findCrowd(provider.kind) : undefined;
  return crowd ? crowd.fees(provider?.fees) : (provider?.fees ?? DEFAULT_CROWD.fees());
}

/** How the dashboard names a crowd ("MTurk", "Prolific", "in-house crowd"; an unknown kind by itself). */
export function crowdName(kind: string): string {
  return findCrowd(kind)?.name ?? kind;
}

/** The crowd with its mode ("Prolific simulator", "MTurk sandbox"); a crowd without modes has none. */
export function crowdLabel(kind: string, mode: string | null): string {
  const crowd = findCrowd(kind);
  return !mode || (crowd && crowd.modes.length === 0) ? crowdName(kind) : `${crowdName(kind)} ${mode}`;
}

/** Each crowd's currency now, read once (pages and SQL that list several crowds). */
export async function crowdCurrencyTable(db: Db): Promise<Map<string, string>> {
  return new Map(await Promise.all(CROWDS.map(async (c) => [c.kind, await c.currency(db)] as const)));
}

/** Whether a crowd's current mode has simulated workers. */
export async function crowdIsSimulated(db: Db, kind: string): Promise<boolean> {
  const crowd = findCrowd(kind);
  if (!crowd) return false;
  const mode = await crowd.mode(db);
  return crowd.modes.some((m) => m.mode === mode && m.simulated);
}

/** The new-event form's choices (value and text), from the registry. */
export function crowdChoices(): Array<{ value: string; label: string }> {
  return CROWDS.map((c) => ({ value: c.kind, label: c.choice }));
}
