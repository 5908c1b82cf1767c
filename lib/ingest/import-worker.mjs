// The import worker thread (see import-thread.ts and import-work.ts). Plain JavaScript, loaded from the
// project folder like language-worker.mjs, so that it runs the same under Vitest, the CLI (tsx) and the built
// web server (whose bundle does not contain lib/ingest as separate files): it registers tsx, then loads
// the TypeScript work module from lib/ingest.
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

// On Linux a nice value is per thread (0: the calling one) and threads started from here inherit it: the
// import's work yields the CPU to the server's own thread, which answers pages meanwhile.
try {
  os.setPriority(0, Math.min(19, os.getPriority(0) + 10));
} catch {
  // not permitted here: the work still runs off the event loop
}
register({ tsconfig: path.join(workerData.root, "tsconfig.json") });
const { serveImportWork } = await import(pathToFileURL(path.join(workerData.root, "lib/ingest/import-work.ts")).href);
serveImportWork(parentPort);
