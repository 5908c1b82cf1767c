// The checks Accord's server (scripts/serve.mjs) makes before Next.js sees a request.
import { randomBytes } from "node:crypto";

/** Longer request targets get 414 at once (Next.js would otherwise hang on 8–16 KB URLs). */
export const MAX_URL_LENGTH = 8192;

/** A header name no client can guess, made once per server process; the app reads it from ACCORD_PEER_HEADER. */
export function newPeerHeaderName() {
  return `x-accord-peer-${randomBytes(12).toString("hex")}`;
}

/**
 * Answers 414 for an over-long URL (returns false: the request is done), otherwise drops any client-sent peer
 * header and writes the TCP peer's address under the secret name (returns true: hand it to Next.js).
 */
export function guardRequest(req, res, peerHeader) {
  if ((req.url ?? "").length > MAX_URL_LENGTH) {
    res.writeHead(414, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end(`URI too long: at most ${MAX_URL_LENGTH} characters.\n`);
    return false;
  }
  for (const name of Object.keys(req.headers)) if (name.startsWith("x-accord-peer")) delete req.headers[name];
  req.headers[peerHeader] = req.socket.remoteAddress ?? "";
  return true;
}
