import "server-only";
import { LabellingModel } from "@/lib/crowd/llm/simulator/model";
import { textKey, truthFromMap } from "@/lib/crowd/simulator/truth";
import type { Db } from "@/lib/db/client";
import { LLM_RUN_STATUS } from "@/lib/db/enums";
import { displayText } from "@/lib/text/display-text";
import { createRng, seedFrom } from "@/lib/util/random";

/**
 * Test and demo data for the LLM-vs-crowd report (not used by the product): a finished LlmRun of an event whose
 * labels come from the LLM simulator's model (seeded, systematic mistakes) over the given truth, and optionally
 * `echoWorkers` of the busiest workers turned into echoes: on the tweets where the LLM differs from the accepted
 * label, each of their counted judgments takes the LLM's label with probability `echoRate`.
 */
export async function seedLlmRun(
  db: Db,
  { eventId, truth, seed = 1, echoWorkers = 0, echoRate = 0.8 }: { eventId: string; truth: ReadonlyMap<string, string>; seed?: number; echoWorkers?: number; echoRate?: number },
): Promise<{ runId: string; echoWorkerIds: string[] }> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { schemeId: true } });
  const labels = (await db.label.findMany({ where: { schemeId: event.schemeId }, orderBy: { position: "asc" }, select: { value: true } })).map((l) => l.value);
  const tweets = await db.tweet.findMany({ where: { eventId }, select: { id: true, text: true } });
  const oracle = truthFromMap(new Map(tweets.filter((t) => truth.has(t.id)).map((t) => [textKey(displayText(t.text)), truth.get(t.id) as string])));
  const model = new LabellingModel({ seed, truth: oracle });
  const llmOf = new Map(tweets.map((t) => [t.id, model.label(displayText(t.text), labels)]));
  const run = await db.llmRun.create({
    data: { eventId, model: "accord-sim-1", baseUrl: "http://127.0.0.1:9420/v1", temperature: 0, promptVersion: "seed", exampleTweetIds: [], status: LLM_RUN_STATUS.done, tweetsTotal: tweets.length, tweetsLabelled: tweets.length, promptTokens: tweets.length * 90, completionTokens: tweets.length * 12, inputPricePerMillion: 0.15, outputPricePerMillion: 0.6, finishedAt: new Date() },
  });
  await db.llmLabel.createMany({ data: tweets.map((t) => ({ runId: run.id, tweetId: t.id, pass: 0, label: llmOf.get(t.id) as string })) });
  if (echoWorkers <= 0) return { runId: run.id, echoWorkerIds: [] };
  const busiest = await db.judgment.groupBy({ by: ["workerId"], where: { counted: true, isGold: false, tweet: { eventId } }, _count: { _all: true }, orderBy: [{ _count: { workerId: "desc" } }, { workerId: "asc" }], take: echoWorkers });
  const accepted = new Map((await db.acceptedLabel.findMany({ where: { eventId }, select: { tweetId: true, label: true } })).map((a) => [a.tweetId, a.label]));
  const rng = createRng(seedFrom(seed, "seed-echo"));
  for (const { workerId } of busiest) {
    const judgments = await db.judgment.findMany({ where: { workerId, counted: true, isGold: false, tweet: { eventId } }, select: { assignmentId: true, tweetId: true }, orderBy: [{ tweetId: "asc" }] });
    for (const j of judgments) {
      const llm = llmOf.get(j.tweetId) as string;
      const acc = accepted.get(j.tweetId);
      if (acc === undefined || acc === llm || rng() >= echoRate) continue;
      await db.judgment.update({ where: { assignmentId_tweetId: { assignmentId: j.assignmentId, tweetId: j.tweetId } }, data: { label: llm } });
    }
  }
  return { runId: run.id, echoWorkerIds: busiest.map((b) => b.workerId) };
}
