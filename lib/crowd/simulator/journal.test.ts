import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildHitQuestionXml } from "@/lib/crowd/mturk/hit-question";
import { nastyItems } from "@/lib/crowd/test-fixtures";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { beforeCreate, journalEntry, replayJournal } from "./journal";
import { startSimulator } from "./server";
import { emptyState } from "./state";

const TARGET = "MTurkRequesterServiceV20170117.";
async function call(url: string, op: string, body: object): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", headers: { "x-amz-target": TARGET + op, "content-type": "application/x-amz-json-1.1" }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

const question = buildHitQuestionXml({ items: nastyItems(2), labels: HUMAID_LABELS, submitUrl: "https://workersandbox.mturk.com/mturk/externalSubmit" });
const createHit = (token: string) => ({
  LifetimeInSeconds: 3600,
  AssignmentDurationInSeconds: 600,
  Reward: "0.50",
  Title: "Categorise tweets",
  Description: "Pick one category per tweet",
  MaxAssignments: 3,
  AutoApprovalDelayInSeconds: 86400,
  Question: question,
  UniqueRequestToken: token,
});

describe("the simulator's journal", () => {
  it("replays what a create call added, idempotently", () => {
    const state = emptyState({ seed: 1, balanceCents: 1000 });
    const before = beforeCreate(state);
    state.hits.H1 = { HITId: "H1" } as (typeof state.hits)[string];
    state.hitOrder.push("H1");
    state.tokens["hit|t1"] = { time: 1, id: "H1" };
    state.idCounter = 4;
    const entry = journalEntry(state, before);
    const restored = emptyState({ seed: 1, balanceCents: 1000 });
    replayJournal(restored, [entry, entry]);
    expect(restored.hitOrder).toEqual(["H1"]);
    expect(Object.keys(restored.hits)).toEqual(["H1"]);
    expect(restored.tokens).toEqual({ "hit|t1": { time: 1, id: "H1" } });
    expect(restored.idCounter).toBe(4);
  });

  it("keeps a HIT created right before a kill -9 of the simulator's process", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "accord-sim-kill-"));
    const file = path.join(dir, "state.json");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", path.join("lib", "crowd", "simulator", "sigkill-child.ts"), file], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out.trim());
        });
        child.on("exit", () => reject(new Error(`the simulator child exited: ${out}`)));
      });
      const created = await call(url, "CreateHIT", createHit("accord-hit-1"));
      child.kill("SIGKILL"); // at once: the state file is written 200 ms after a change, the journal before the answer
      expect(await exited).toBe("SIGKILL");
      const hitId = (created.HIT as { HITId: string }).HITId;

      const restarted = await startSimulator({ port: 0, persistFile: file, workers: [], seed: 3 });
      try {
        const got = await call(restarted.url, "GetHIT", { HITId: hitId });
        expect((got.HIT as { HITId: string; MaxAssignments: number }).MaxAssignments).toBe(3);
        // The same token gives the same HIT, not a duplicate.
        const again = await call(restarted.url, "CreateHIT", createHit("accord-hit-1"));
        expect(JSON.stringify(again)).toContain(hitId);
        expect(restarted.state.hitOrder).toEqual([hitId]);
      } finally {
        await restarted.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
