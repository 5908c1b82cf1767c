import "server-only";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { CrowdPolicy } from "./policy";
import type { CrowdProvider, FeeRules } from "./provider";

/**
 * What Accord knows of a crowd besides its adapter: one descriptor per crowd, in the crowd's folder
 * (`lib/crowd/<crowd>/descriptor.ts`), listed once in `registry.ts`. Code outside lib/crowd asks the registry
 * instead of branching on a provider kind.
 */

/** A way of reaching a crowd: its simulator, a sandbox, a test mode (real crowd, test participants) or production. */
export type CrowdModeName = "simulator" | "sandbox" | "test" | "production";

export type CrowdMode = {
  mode: CrowdModeName;
  /** Simulated workers (a simulator): their labels follow a noise model, not the tweets' meaning. */
  simulated: boolean;
  /** Real money is spent (a production action then needs the crowd's confirmation, see `confirmsProduction`). */
  realMoney: boolean;
};

/** What a batch costs before anything is published, by the crowd's own quote (Prolific's cost calculator). */
export type BatchQuote = {
  feePerAssignmentCents: number;
  /** Rewards + fees of the first round. */
  baseCents: number;
  /** Rewards + fees of the assignments the procedure may add later. */
  extraReserveCents: number;
  /** Where the fees come from (the crowd's calculator, or its documented rule when unreachable). */
  feeBasis?: { source: "calculator" | "estimate"; note: string };
};

export type BatchQuoteInput = { hits: number; rewardCents: number; initial: number; max: number };

/**
 * What the campaign layer hands a crowd's connector: whether the crowd's circuit breaker is open, and a subscription
 * to its opening (returns the unsubscribe) so that calls in flight give up at once.
 */
export type CrowdConnectOptions = { degraded?: () => boolean; onDown?: (fn: () => void) => () => void };

export interface CrowdDescriptor {
  /** The provider kind stored on events, HITs and workers ("mturk", "prolific", "local"). */
  readonly kind: string;
  /** How the dashboard names the crowd: "MTurk", "Prolific", "in-house crowd". */
  readonly name: string;
  /** The short name of lists (the Workers page): "MTurk", "Prolific", "in-house". */
  readonly shortName: string;
  /** The new-event form's option for it. */
  readonly choice: string;
  /** Its modes (empty: the crowd has none, as the in-house crowd). */
  readonly modes: readonly CrowdMode[];
  /** The mode chosen in Settings now (null: the crowd has no modes). */
  mode(db: Db): Promise<string | null>;
  /** Whether the crowd runs in a test mode now (Prolific's test studies for its test participant). */
  testMode(db: Db): Promise<boolean>;
  /** The ISO 4217 currency it pays in now (Prolific: the workspace's, as recorded). */
  currency(db: Db): Promise<string>;
  /**
   * The fee rule: what the crowd charges on a reward and on a bonus. The one function estimate, ledger and replay
   * ask. `learned`: the rate a connected provider learned from the crowd (Prolific's cost calculator), when at hand.
   */
  fees(learned?: FeeRules): FeeRules;
  /** The crowd's own quote of a batch (Prolific's cost calculator); omitted: the estimate prices it by `fees`. */
  quoteBatch?(provider: CrowdProvider, input: BatchQuoteInput): Promise<BatchQuote>;
  /** A production action (publishing) needs the researcher's explicit confirmation. */
  readonly confirmsProduction: boolean;
  /**
   * The qualification test: whether HITs require it (publishing refuses without it), who grades it (a sentence for
   * the panel), and whether Accord records who took it and passed (a screening study graded on Accord's pages).
   */
  readonly qualification: { required: boolean; grading: string; recordsTakers: boolean };
  /**
   * Where participants submit the HIT's form: "crowd" (the crowd's own endpoint, MTurk's externalSubmit) or "accord"
   * (Accord's task pages). `submitUrl` is the address the HIT's form posts to.
   */
  readonly submitsTo: "crowd" | "accord";
  submitUrl(db: Db, provider: CrowdProvider): Promise<string>;
  /** Its workers are Accord's own users (the worker's external id is a user id). */
  readonly workersAreUsers: boolean;
  /** The admin's settings: the page where they are edited, its form (data-testid) and the form's zod schema (null: none). */
  readonly settings: { page: string; form: string; schema: z.ZodType } | null;
  /** How the crowd decides submissions (lib/crowd/policy.ts). */
  readonly policy: CrowdPolicy;
  /** The local simulator: the command that starts it and its starter, loaded on demand (null: none). */
  readonly simulator: { command: string; loadStarter: () => Promise<(...args: never[]) => Promise<unknown>> } | null;
  /** The demo autopilot's publish terms on this crowd (null: the admin's publish defaults). */
  readonly demo: { rewardCents: number; durationSeconds: number } | null;
  /** The crowd's provider for the settings of now (the campaign layer keeps one per settings). */
  connect(db: Db, options: CrowdConnectOptions): Promise<CrowdProvider>;
}
