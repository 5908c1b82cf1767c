import "server-only";
import { PROVIDER_KIND } from "@/lib/db/enums";
import type { CrowdDescriptor } from "../descriptor";
import { prolificBatchCost, prolificFees } from "./batch-cost";
import { connectProlific } from "./connect";
import { getProlificCurrency } from "./currency";
import { prolificPolicy } from "./policy";
import { getProlificSettings, participantBaseUrl } from "./settings";
import { prolificSettingsFormSchema } from "./settings-form";

/** Prolific: its simulator (default) or production, and production's test mode (test studies for the test participant). */
export const prolificCrowd: CrowdDescriptor = {
  kind: PROVIDER_KIND.prolific,
  name: "Prolific",
  shortName: "Prolific",
  choice: "Prolific (simulator / production)",
  modes: [
    { mode: "simulator", simulated: true, realMoney: false },
    { mode: "test", simulated: false, realMoney: false },
    { mode: "production", simulated: false, realMoney: true },
  ],
  mode: async (db) => (await getProlificSettings(db)).mode,
  testMode: async (db) => (await getProlificSettings(db)).testMode,
  currency: getProlificCurrency,
  fees: prolificFees,
  quoteBatch: prolificBatchCost,
  confirmsProduction: true,
  qualification: {
    required: true,
    grading:
      "Participants take it as a screening study on Prolific; Accord's screening page grades it with the answer key and Prolific adds those who pass to the group the HIT studies are open to.",
    recordsTakers: true,
  },
  // Participants work on Accord's Prolific task pages (the HIT's form is read from its question, not posted as it is).
  submitsTo: "accord",
  submitUrl: async () => `${participantBaseUrl().replace(/\/+$/, "")}/prolific/task/submit`,
  workersAreUsers: false,
  settings: { page: "/settings", form: "prolific-form", schema: prolificSettingsFormSchema },
  policy: prolificPolicy,
  simulator: { command: "accord simulator --prolific", loadStarter: async () => (await import("./simulator/server")).startProlificSimulator },
  // Prolific refuses less than its hourly minimum: 30 tweets in an estimated 10 minutes at its recommended rate (£9 an hour).
  demo: { rewardCents: 150, durationSeconds: 1800 },
  connect: (db) => connectProlific(db),
};
