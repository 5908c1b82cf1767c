/**
 * Prolific API calls Accord makes for one batch against the local simulator: publishing N HITs (one study, its places
 * raised HIT by HIT) and one sync pass (each HIT's status and its submissions, as the sync loop asks for them), with
 * three sessions per HIT given work by the queue. Counts, not times: the same on any machine.
 *
 * Run: npx tsx scripts/bench/prolific-calls.ts [--hits 40]
 */
import { parseArgs } from "node:util";
import { ThrottleGate } from "@/lib/crowd/throttle-gate";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { learnFeeBasisPoints, ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { MemoryProlificStore } from "@/lib/crowd/prolific/provider-store";
import { startProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { ManualClock } from "@/lib/crowd/simulator/clock";

const { values } = parseArgs({ options: { hits: { type: "string", default: "40" } } });
const N = Number(values.hits);
const sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000_000, currency: "GBP" });
const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
const provider = new ProlificProvider({
  client,
  mode: "simulator",
  workspaceId: sim.state.workspace.id,
  projectId: sim.state.project.id,
  taskUrl: "http://127.0.0.1:3000/prolific/task",
  screeningUrl: "http://127.0.0.1:3000/prolific/screening",
  store: new MemoryProlificStore(),
  feeBasisPoints: await learnFeeBasisPoints(client),
});
let calls = 0;
sim.intercept = ({ phase }) => {
  if (phase === "before") calls++;
  return undefined;
};
const counted = async (what: string, work: () => Promise<void>) => {
  calls = 0;
  const started = performance.now();
  await work();
  console.log(`${what.padEnd(44)} ${String(calls).padStart(5)} calls  ${(performance.now() - started).toFixed(0).padStart(5)} ms`);
};

const ids: string[] = [];
const hit = (i: number) => ({ accordHitId: `hit-${i}`, title: "t", description: "d", rewardCents: 300, maxAssignments: 3, lifetimeSeconds: 86_400, assignmentDurationSeconds: 2_700, autoApprovalDelaySeconds: 86_400, questionXml: "<x/>", batch: { key: "b1", position: i } });
await counted(`publish ${N} HITs (one batch study)`, async () => {
  for (let i = 1; i <= N; i++) ids.push((await provider.publishHit(hit(i))).providerHitId);
});
const studyId = ids[0]!.split(":")[0]!;
await counted(`${3 * N} sessions given a HIT and their answers`, async () => {
  for (let p = 0; p < 3 * N; p++) {
    const participantId = `p${String(p).padStart(23, "0")}`;
    const sub = sim.service.startSubmission(participantId, studyId);
    const hitId = (await provider.hitForSession({ studyId, sessionId: sub.id, participantId })) as string;
    const { completionCode } = await provider.saveAnswers({ submissionId: sub.id, studyId, accordHitId: hitId, answers: [] });
    sim.service.completeSubmission(sub.id, completionCode);
  }
});
await counted(`one sync pass over ${N} HITs`, async () => {
  for (const id of ids) {
    await provider.getHit({ providerHitId: id });
    for await (const a of provider.listSubmittedAssignments({ providerHitId: id })) void a;
  }
});
await sim.stop();
