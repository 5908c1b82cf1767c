import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { IngestRow } from "../rows";
import { detectCleanText, type LanguageDetector, loadEld, cleanForDetection } from "./language";

/**
 * Language detection of an import, started while the file is still being read.
 *
 * eld costs about 60–80 µs per real tweet and churns through short-lived strings: on 100K rows in the main
 * thread it took 6–9 s and grew the process by ~370 MB that V8 kept. Here the texts go, in batches as they are
 * read, to worker threads (one per spare core, at most 2; one on this 2-core machine) whose heaps are capped,
 * and which load eld's data from JSON (see language-worker.mjs); identical texts (retweets, copies) are
 * detected once. The workers end as soon as the last batch is answered, giving their memory back.
 * `finish()` returns a plain synchronous detector for filterByLanguage() that answers from the results.
 * When no worker can start (e.g. the worker file is missing), detection runs in-process, as before.
 */
export type BackgroundLanguageDetection = {
  /** Queues the rows that have no language of their own (cheap: cleans and de-duplicates the texts). */
  add(rows: readonly IngestRow[]): void;
  /** Adds `rows` (the rows about to be filtered) and waits for every queued text; afterwards the workers are gone. */
  finish(rows: readonly IngestRow[]): Promise<LanguageDetector>;
  /** Stops the workers (on cancel or failure); safe to call twice. */
  close(): Promise<void>;
  /** How the texts were detected: worker threads started, texts answered by them, texts detected in-process. */
  stats(): { workers: number; inWorkers: number; inProcess: number };
};

const BATCH = 2_000;
/** The worker's heap: eld's tables (~30 MB) plus room for its garbage, collected early instead of kept. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

/** The worker script and eld's data as JSON (eld-data.mjs), from the project root (the working directory, as for data/). */
function workerFiles(): { script: string; jsonFile: string } | null {
  const root = process.cwd();
  const script = path.resolve(/*turbopackIgnore: true*/ root, "lib/ingest/filters/language-worker.mjs");
  return fs.existsSync(script) ? { script, jsonFile: path.resolve(/*turbopackIgnore: true*/ root, "generated/eld-small.json") } : null;
}

let warned = false;
/** Said once per process: imports still work, only slower and with more memory in the main thread. */
function warnInProcess(why: string): void {
  if (warned) return;
  warned = true;
  console.warn(`[accord] language detection runs in the main thread (no worker thread: ${why})`);
}

type Pending = { texts: string[]; resolve: (langs: (string | null)[]) => void; reject: (err: Error) => void };

class DetectionWorker {
  private worker: Worker;
  private pending = new Map<number, Pending>();
  private nextId = 0;
  private failed: Error | null = null;
  queued = 0;

  constructor({ script, jsonFile }: { script: string; jsonFile: string }) {
    this.worker = new Worker(script, { resourceLimits: WORKER_LIMITS, workerData: { jsonFile } });
    this.worker.unref();
    this.worker.on("message", (m: { id?: number; langs?: (string | null)[] }) => {
      if (m.id === undefined) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.queued -= p.texts.length;
      p.resolve(m.langs as (string | null)[]);
    });
    const fail = (err: Error) => {
      this.failed ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the language detection worker exited (code ${code})`)));
  }

  detect(texts: string[]): Promise<(string | null)[]> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { texts, resolve, reject });
      this.queued += texts.length;
      this.worker.postMessage({ id, texts });
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** One worker per core the main thread leaves free, at most 2 (1 on a 2-core machine). */
const defaultThreads = () => Math.max(1, Math.min(2, os.availableParallelism() - 1));

export function startLanguageDetection({ threads = defaultThreads() }: { threads?: number } = {}): BackgroundLanguageDetection {
  const workers: DetectionWorker[] = [];
  let started = false;
  /** The workers start with the first batch that needs them (a file with its own languages needs none). */
  const start = () => {
    started = true;
    const files = workerFiles();
    if (!files) {
      if (threads > 0) warnInProcess("lib/ingest/filters/language-worker.mjs is not under the working directory");
      return;
    }
    try {
      for (let i = 0; i < threads; i++) workers.push(new DetectionWorker(files));
    } catch (err) {
      warnInProcess(err instanceof Error ? err.message : String(err));
      for (const w of workers.splice(0)) void w.stop().catch(() => undefined);
    }
  };
  /** raw text → cleaned text (null: no letters, nothing to detect); cleaned text → language (null until answered). */
  const cleanOf = new Map<string, string | null>();
  const langOf = new Map<string, string | null>();
  const waiting: Array<Promise<void>> = [];
  let batch: string[] = [];
  let inProcess: string[] = [];
  let closed = false;
  const counts = { inWorkers: 0, inProcess: 0 };

  const send = () => {
    if (batch.length === 0) return;
    const texts = batch;
    batch = [];
    if (!started && !closed) start();
    if (workers.length === 0) {
      inProcess.push(...texts);
      return;
    }
    const target = workers.reduce((a, b) => (b.queued < a.queued ? b : a));
    waiting.push(
      target.detect(texts).then(
        (langs) => {
          for (let i = 0; i < texts.length; i++) langOf.set(texts[i], langs[i]);
          counts.inWorkers += texts.length;
        },
        (err: unknown) => {
          // A worker that failed (out of memory, killed): these texts are detected in-process at the end.
          if (!closed) warnInProcess(err instanceof Error ? err.message : String(err));
          inProcess.push(...texts);
        },
      ),
    );
  };

  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  };

  const add = (rows: readonly IngestRow[]) => {
      for (const row of rows) {
        if (row.lang !== undefined || cleanOf.has(row.text)) continue;
        const clean = cleanForDetection(row.text);
        cleanOf.set(row.text, clean);
        if (clean === null) continue;
        if (langOf.has(clean)) continue;
        langOf.set(clean, null);
        batch.push(clean);
        if (batch.length >= BATCH) send();
      }
  };

  return {
    add,
    async finish(rows) {
      add(rows);
      send();
      await Promise.all(waiting);
      await close();
      if (inProcess.length > 0) {
        const eld = await loadEld();
        for (const clean of inProcess) langOf.set(clean, detectCleanText(eld, clean));
        counts.inProcess += inProcess.length;
        inProcess = [];
      }
      return (text: string) => {
        const clean = cleanOf.get(text);
        if (clean === undefined) throw new Error("language detection: a row was filtered that finish() was not given");
        return clean === null ? null : (langOf.get(clean) ?? null);
      };
    },
    close,
    stats: () => ({ workers: workers.length, ...counts }),
  };
}
