import "server-only";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { DEFAULT_CURRENCY } from "@/lib/text/format";
import type { CrowdDescriptor } from "../descriptor";
import type { FeeRules } from "../provider";
import { MTURK_FEES } from "../mturk/fees";
import { getLocalCrowdProvider } from "./db-store";
import { localPolicy } from "./policy";

/** In-house rewards are booked at MTurk's assignment fee (as before crowds had their own rules); bonuses carry none. */
export const LOCAL_FEES: FeeRules = { assignmentFeeCents: MTURK_FEES.assignmentFeeCents, bonusFeeCents: () => 0 };

/** Accord's own annotators, working on its Task page: no modes, no money from an account, never rejected. */
export const localCrowd: CrowdDescriptor = {
  kind: PROVIDER_KIND.local,
  name: "in-house crowd",
  shortName: "in-house",
  choice: "In-house annotators (Accord's task page)",
  modes: [],
  mode: async () => null,
  testMode: async () => false,
  currency: async () => DEFAULT_CURRENCY,
  fees: (learned) => learned ?? LOCAL_FEES,
  confirmsProduction: false,
  qualification: { required: false, grading: "Annotators take it on their Task page and Accord grades it with the answer key; HITs open to those who pass.", recordsTakers: false },
  submitsTo: "accord",
  submitUrl: async () => "/task/submit",
  workersAreUsers: true,
  settings: null,
  policy: localPolicy,
  simulator: null,
  demo: null,
  connect: async (db) => getLocalCrowdProvider(db),
};
