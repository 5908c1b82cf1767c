// The checks Accord's server (scripts/serve.mjs) makes before Next.js sees a request: the URL's length, the body's
// size by path (lib/server/body-limits.mjs) before a byte of it is read, and the TCP peer's address for the sign-in
// throttle. Every answer the guard gives itself carries the security headers of lib/server/fixed-headers.mjs.
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { unsealData } from "iron-session";
import { bodyLimitFor, formatLimit } from "../lib/server/body-limits.mjs";
import { NOTHING_RENDERED_CSP, SECURITY_HEADERS } from "../lib/server/fixed-headers.mjs";

/** Longer request targets get 414 at once (Next.js would otherwise hang on 8–16 KB URLs). */
export const MAX_URL_LENGTH = 8192;

/** lib/auth/session.ts's cookie. */
export const SESSION_COOKIE = "accord_session";

/** A header name no client can guess, made once per server process; the app reads it from ACCORD_PEER_HEADER. */
export function newPeerHeaderName() {
  return `x-accord-peer-${randomBytes(12).toString("hex")}`;
}

/** The guard's own answers' headers: the shared security headers, a policy that allows nothing, no caching. */
export function guardAnswerHeaders() {
  const headers = Object.fromEntries(SECURITY_HEADERS.map((h) => [h.key, h.value]));
  return { ...headers, "Content-Security-Policy": NOTHING_RENDERED_CSP, "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };
}

/** Answers a request the guard refuses; the connection closes after it (the rest of the body is never read). */
function refuse(res, status, message, then) {
  const body = `${message}\n`;
  res.writeHead(status, { ...guardAnswerHeaders(), "Content-Length": Buffer.byteLength(body), Connection: "close" });
  res.end(body, then);
}

/** The raw answer to a request Node's parser rejects (a malformed request line or header, headers too large). */
export function clientErrorAnswer(code) {
  const [status, reason, message] =
    code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request's headers are too large."]
      : code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request took too long to arrive."]
        : [400, "Bad Request", "The request is malformed."];
  const body = `${message}\n`;
  const head = Object.entries({ ...guardAnswerHeaders(), "Content-Length": Buffer.byteLength(body), Connection: "close" }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${head.join("")}\r\n${body}`;
}

/**
 * The session cookie's password as lib/secrets/derive-key.ts derives it (HKDF of the master secret, "session-cookie"):
 * from ACCORD_SECRET, else from the secret file the app generates. null while there is no secret yet (then no
 * session can exist either). Read only, never created: the app owns the file.
 */
export function sessionCookiePassword(env = process.env, cwd = process.cwd()) {
  let master = null;
  if (env.ACCORD_SECRET) master = createHash("sha256").update(env.ACCORD_SECRET).digest();
  else {
    try {
      const fromFile = Buffer.from(fs.readFileSync(path.resolve(cwd, env.ACCORD_SECRET_FILE || "data/.accord-secret"), "utf8").trim(), "hex");
      if (fromFile.length >= 32) master = fromFile;
    } catch {
      // not generated yet
    }
  }
  return master && Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "accord:session-cookie", 32)).toString("hex");
}

/** sessionCookiePassword, kept once found. */
function cachedSessionPassword() {
  let found = null;
  return () => (found ??= sessionCookiePassword());
}

/** The session cookie's values in a Cookie header (the sealed token, as the browser sent it). */
function sessionCookies(cookieHeader) {
  const values = [];
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    try {
      values.push(decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // not a cookie the app wrote
    }
  }
  return values;
}

/**
 * True when the Cookie header holds a session cookie sealed with the server's key and not expired (iron-session's
 * seal: only the server can make one). Whether the session still lives (sign-out, a disabled account) is the
 * route's check, which comes before it reads the body.
 */
export async function hasSealedSession(cookieHeader, password) {
  if (!password) return false;
  for (const seal of sessionCookies(cookieHeader)) {
    if (seal.length > 4096) continue;
    try {
      const data = await unsealData(seal, { password });
      if (typeof data.token === "string" && data.token !== "") return true;
    } catch {
      // malformed: not a session
    }
  }
  return false;
}

/** The declared Content-Length (a number), null for a chunked body; Node's parser has refused anything else. */
function declaredLength(req) {
  if (req.headers["transfer-encoding"] !== undefined) return null;
  const declared = Number(req.headers["content-length"] ?? "0");
  return Number.isFinite(declared) ? declared : 0;
}

function pathnameOf(url) {
  try {
    return new URL(url ?? "/", "http://accord.invalid").pathname;
  } catch {
    return "/";
  }
}

/**
 * Watches a request's body as Node's parser hands it over (IncomingMessage.push): counts the bytes and, while
 * `holding`, keeps them back from the request (so Next.js starts only once the whole body is known to fit).
 * Over `limit` it reads no further and calls onOverflow(limit) once. A held body is read ahead up to `readAhead` bytes;
 * past that the socket waits (push returns false) until someone reads the request.
 */
function watchBody(req, { limit, readAhead, onOverflow }) {
  const push = req.push;
  let seen = 0;
  let held = [];
  let holding = true;
  let ended = false;
  let cut = false;
  let onEnded = null;
  const overflow = () => {
    cut = true;
    held = [];
    onOverflow(limit);
  };
  req.push = function guardedPush(chunk, encoding) {
    if (cut) return false;
    if (chunk === null) {
      if (!holding) return push.call(req, null);
      ended = true;
      onEnded?.();
      return false;
    }
    seen += chunk.length;
    if (seen > limit) {
      overflow();
      return false;
    }
    if (!holding) return push.call(req, chunk, encoding);
    held.push(chunk);
    return seen <= readAhead;
  };
  return {
    /** Lowers the limit (a session that was not one); over it already, or declared over it: onOverflow now. */
    setLimit(next, declared) {
      limit = next;
      readAhead = Math.min(readAhead, next);
      if ((seen > limit || (declared !== null && declared > limit)) && !cut) overflow();
    },
    /** Hands the held bytes (and the end, if it came) to the request; from now on bytes pass as they come. */
    release() {
      holding = false;
      for (const chunk of held) push.call(req, chunk);
      held = [];
      if (ended) push.call(req, null);
    },
    whenEnded(callback) {
      if (ended) callback();
      else onEnded = callback;
    },
    get cut() {
      return cut;
    },
  };
}

/** Once the guard has answered a request Next.js already has, Next's own late answer goes nowhere. */
function silence(res) {
  res.setHeader = () => res;
  res.appendHeader = () => res;
  res.removeHeader = () => undefined;
  res.writeHead = () => res;
  res.flushHeaders = () => undefined;
  res.write = () => true;
  res.end = (...args) => {
    const callback = args.find((a) => typeof a === "function");
    if (callback) process.nextTick(callback);
    return res;
  };
}

const tooLargeMessage = (limit, anonymous) =>
  anonymous
    ? `Request body too large: at most ${formatLimit(limit)} without a signed-in session. Sign in first.`
    : `Request body too large: at most ${formatLimit(limit)} here.`;

/**
 * The guard in front of Next.js. `handle(req, res)` is Next.js's request handler; `sessionPassword()` gives the
 * session cookie's password (or null); `limits` the body limits by method and path (tests pass smaller ones).
 * Returns the listeners for the http server's request, checkContinue and clientError events.
 */
export function createRequestGuard({ peerHeader, handle, sessionPassword = cachedSessionPassword(), limits = bodyLimitFor }) {
  function admit(req, res, expectsContinue) {
    if ((req.url ?? "").length > MAX_URL_LENGTH) return refuse(res, 414, `URI too long: at most ${MAX_URL_LENGTH} characters.`);
    for (const name of Object.keys(req.headers)) if (name.startsWith("x-accord-peer")) delete req.headers[name];
    req.headers[peerHeader] = req.socket.remoteAddress ?? "";

    const declared = declaredLength(req);
    const go = () => {
      if (expectsContinue) res.writeContinue();
      void handle(req, res);
    };
    if (declared === 0) return go();
    const { limit, signedInLimit } = limits(req.method ?? "GET", pathnameOf(req.url));
    const sessionPath = signedInLimit !== undefined;
    const mayBeSignedIn = sessionPath && sessionCookies(req.headers.cookie).length > 0;
    // Refused at the anonymous limit of a path that takes more with a session: the message says to sign in.
    const tooLarge = (at) => tooLargeMessage(at, sessionPath && at < signedInLimit);
    const largest = mayBeSignedIn ? signedInLimit : limit;
    if (declared !== null && declared > largest) return refuse(res, 413, tooLarge(largest));

    let handed = false;
    const body = watchBody(req, {
      limit: largest,
      readAhead: limit,
      onOverflow: (at) => {
        if (!handed) return refuse(res, 413, tooLarge(at));
        // Next.js is reading this body: answer if it has not, then end the request with an error so that the
        // handler stops (an early end would look like a complete, shorter body).
        const stop = () => req.destroy(new Error("request body over the limit"));
        if (res.headersSent) stop();
        else refuse(res, 413, tooLarge(at), stop);
        silence(res);
      },
    });
    const holdThenGo = () => {
      if (expectsContinue) res.writeContinue();
      body.whenEnded(() => {
        if (body.cut) return;
        body.release();
        handed = true;
        void handle(req, res);
      });
    };
    if (!mayBeSignedIn) return holdThenGo();
    hasSealedSession(req.headers.cookie, sessionPassword()).then((signedIn) => {
      if (body.cut || req.destroyed) return;
      if (signedIn) {
        body.release();
        handed = true;
        return go();
      }
      body.setLimit(limit, declared);
      if (!body.cut) holdThenGo();
    }).catch(() => req.destroy()); // the client went away meanwhile: nothing to answer
  }

  return {
    onRequest: (req, res) => admit(req, res, false),
    /** Expect: 100-continue — the client sends the body only once the guard lets it. */
    onCheckContinue: (req, res) => admit(req, res, true),
    onClientError(err, socket) {
      if (err.code === "ECONNRESET" || !socket.writable || socket._httpMessage?.headersSent === true) return socket.destroy();
      socket.end(clientErrorAnswer(err.code));
    },
  };
}
