#!/usr/bin/env node
// Serves the built app (like `next start`) through Node's http server so that every request first passes
// scripts/request-guard.mjs: 414 for over-long URLs, body limits by path before a byte is read (413), the TCP peer's
// address for the sign-in throttle, and the security headers on the guard's own answers (and on Node's 400s).
//   node scripts/serve.mjs --port 3000 --host 127.0.0.1
import http from "node:http";
import next from "next";
import { createRequestGuard, newPeerHeaderName } from "./request-guard.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
// scripts/start.mjs and the e2e setup pass both.
const port = Number(option("--port", "3000"));
const host = option("--host", "127.0.0.1");

// Set before Next.js loads the app, which reads it (lib/auth/client-address.ts).
const peerHeader = newPeerHeaderName();
process.env.ACCORD_PEER_HEADER = peerHeader;

const app = next({ dev: false, hostname: host, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const guard = createRequestGuard({ peerHeader, handle });
const server = http.createServer(guard.onRequest);
server.on("checkContinue", guard.onCheckContinue);
server.on("clientError", guard.onClientError);
server.on("error", (err) => {
  console.error(`accord: cannot listen on ${host}:${port}: ${err.message}`);
  process.exit(1);
});
server.listen(port, host, () => console.log(`accord: listening on http://${host.includes(":") ? `[${host}]` : host}:${port}`));
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, () => {
    server.close();
    process.exit(0);
  });
}
