// Child process of journal.test.ts: a simulator persisting to argv[2], on a free port; prints its URL, then waits
// to be killed (kill -9).
import { startSimulator } from "./server";

const sim = await startSimulator({ port: 0, persistFile: process.argv[2], workers: [], seed: 3 });
process.stdout.write(`${sim.url}\n`);
setInterval(() => undefined, 60_000);
