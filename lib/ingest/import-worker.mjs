// The import worker thread (see import-thread.ts and import-work.ts). Plain JavaScript, loaded from the
// project folder like language-worker.mjs, so that it runs the same under Vitest, the CLI (tsx) and the built
// web server (whose bundle does not contain lib/ingest as separate files): it registers tsx, then loads
// the TypeScript work module from lib/ingest.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register({ tsconfig: path.join(workerData.root, "tsconfig.json") });
const { serveImportWork } = await import(pathToFileURL(path.join(workerData.root, "lib/ingest/import-work.ts")).href);
serveImportWork(parentPort);
