// Next.js calls register() once when the server process starts. Accord starts its background work
// here (jobs, the sync loop, the local MTurk simulator, the demo), so that it runs in the same process
// as the pages and the live updates reach them through the in-process emitter.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.ACCORD_BACKGROUND === "off") return;
  const { startBackground } = await import("./lib/server/background");
  await startBackground();
}
