// Next.js calls register() once when the server process starts. Accord checks its configuration, then starts
// its background work here (jobs, the sync loop, the local MTurk simulator, the demo), so that it runs in the
// same process as the pages and the live updates reach them through the in-process emitter.
export async function register() {
  // NEXT_RUNTIME is Next's own variable, inlined at build time so the edge bundle drops the Node-only imports.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/startup/start-server");
  await startServer();
}
