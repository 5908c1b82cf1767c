// Shared fixtures for the crowd tests (not used by the product).
import { MTurkClient } from "@aws-sdk/client-mturk";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import type { GoldTweet } from "./mturk/qualification-xml";
import type { HitItem } from "./mturk/hit-question";
import { ManualClock } from "./simulator/clock";
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from "./simulator/server";
import type { SimWorker } from "./simulator/workers";

export const LABEL_VALUES = HUMAID_LABELS.map((l) => l.value);

export interface TestSimulator {
  sim: RunningSimulator;
  clock: ManualClock;
  client: MTurkClient;
}

/** A simulator on a random port with a manual clock, and an SDK client pointed at it. */
export async function startTestSimulator(opts: Omit<StartSimulatorOptions, "clock"> = {}, clientMaxAttempts = 8): Promise<TestSimulator> {
  const clock = new ManualClock();
  const sim = await startSimulator({ workers: {}, seed: 42, ...opts, clock });
  const client = new MTurkClient({
    region: "us-east-1",
    endpoint: sim.url,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: clientMaxAttempts,
    retryMode: "standard",
  });
  return { sim, clock, client };
}

/** Ten gold tweets with labels spread over the scheme (text includes characters that need escaping). */
export function goldTweets(n = 10): GoldTweet[] {
  return Array.from({ length: n }, (_, i) => ({
    tweetId: `90000000000000${String(i).padStart(4, "0")}`,
    text: `Gold tweet ${i + 1}: roads <closed> & "shelters" open ☔ #storm`,
    label: LABEL_VALUES[i % LABEL_VALUES.length],
  }));
}

/** 30 items whose text carries <script>, &, quotes, CDATA terminators and emoji. */
export function nastyItems(n = 30): HitItem[] {
  const texts = [
    `<script>alert("x")</script> help needed`,
    `Water & food at "Main St" shelter 🚨🙏`,
    `it's <b>bad</b> ]]> here &amp; there`,
    `Family missing near O'Hare 😢 — please RT`,
    `Power lines down on 5th & Elm <img src=x onerror=alert(1)>`,
  ];
  return Array.from({ length: n }, (_, i) => ({
    itemId: `item${String(i + 1).padStart(2, "0")}x`,
    tweetId: `1${String(i).padStart(17, "0")}`,
    text: `${texts[i % texts.length]} #${i + 1}`,
  }));
}

/** A passive simulated worker (acts only through the programmatic worker API), accuracy 1, US/NY. */
export function testWorker(workerId: string, extra: Partial<SimWorker> = {}): SimWorker {
  return {
    workerId,
    profile: "careful",
    accuracy: 1,
    locale: { Country: "US", Subdivision: "NY" },
    numberHitsApproved: 5000,
    percentApproved: 99,
    adult: true,
    masters: false,
    constantIndex: 0,
    status: "idle",
    doneHitIds: [],
    testAttempts: {},
    decisions: 0,
    passive: true,
    ...extra,
  };
}
