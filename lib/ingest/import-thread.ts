import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { UserError } from "@/lib/errors";
import type { FromWorker, ImportWorkInput, StoredTweet, ToWorker } from "./import-work";

/**
 * Runs an import's reading, validation and filtering in a worker thread, so that the process that runs
 * the job (the web server, or `accord worker`) keeps serving pages, live updates and lease renewals
 * meanwhile. The worker script is found under the working directory (as language-pool.ts finds its own);
 * without it an import cannot run, and says so.
 */
export type ImportThread = {
  /** Sends the event's stored tweets (in chunks), then tells the worker there are no more. */
  sendStored(chunks: AsyncIterable<StoredTweet[]>): Promise<void>;
  /** Resolves with the worker's "done" message; rejects with its failure (a UserError when it was one). */
  done: Promise<Extract<FromWorker, { type: "done" }>>;
  stop(): Promise<void>;
};

export function importWorkerScript(): string {
  const script = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "lib/ingest/import-worker.mjs");
  if (!fs.existsSync(script)) throw new Error(`the import worker (${script}) is missing: run Accord from its project folder`);
  return script;
}

export function startImportThread(
  input: ImportWorkInput,
  { onMessage, predict }: { onMessage: (m: FromWorker) => void; predict: ((texts: string[]) => Promise<string[]>) | null },
): ImportThread {
  const worker = new Worker(importWorkerScript(), { workerData: { root: process.cwd() } });
  const send = (m: ToWorker) => worker.postMessage(m);
  let stopped = false;
  const done = new Promise<Extract<FromWorker, { type: "done" }>>((resolve, reject) => {
    worker.on("message", (m: FromWorker) => {
      if (m.type === "done") resolve(m);
      else if (m.type === "failed") reject(m.userError ? new UserError(m.message, m.code) : new Error(m.message));
      else if (m.type === "predict") {
        if (!predict) send({ type: "predicted", id: m.id, error: "no classifier" });
        else
          predict(m.texts).then(
            (labels) => send({ type: "predicted", id: m.id, labels }),
            (err: unknown) => send({ type: "predicted", id: m.id, error: err instanceof Error ? err.message : String(err) }),
          );
      } else onMessage(m);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (!stopped) reject(new Error(`the import worker thread exited (code ${code})`));
    });
  });
  done.catch(() => undefined);
  send({ type: "start", input });
  return {
    async sendStored(chunks) {
      for await (const tweets of chunks) send({ type: "stored", tweets });
      send({ type: "storedDone" });
    },
    done,
    async stop() {
      stopped = true;
      await worker.terminate();
    },
  };
}
