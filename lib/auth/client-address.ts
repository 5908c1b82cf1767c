import { isIP } from "node:net";
import { z } from "zod";

/**
 * The address a request came from, for the sign-in throttle.
 *  - Accord's server (scripts/serve.mjs) passes the TCP peer's address in a header whose name holds a random token
 *    made at start-up (ACCORD_PEER_HEADER), so no client can forge it.
 *  - `X-Forwarded-For` is believed only when ACCORD_TRUST_PROXY says how many proxies stand in front of Accord: each
 *    proxy appends the address it saw, so the client is the entry that many places from the right. Without the
 *    setting the header is ignored (a client could write anything in it).
 */
export const LOCAL_ADDRESS = "local";

const trustProxySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(off|false|no|[0-9]{1,2})$/, "use off or the number of proxies in front of Accord (0–10)")
  .transform((v) => (/^[0-9]+$/.test(v) ? Number(v) : 0))
  .pipe(z.number().int().min(0).max(10, "at most 10 proxies"));

/** ACCORD_TRUST_PROXY: off (default) or the number of reverse proxies in front of Accord. */
export function trustedProxyCount(env: Env = process.env): number {
  const raw = env.ACCORD_TRUST_PROXY;
  if (raw === undefined || raw.trim() === "") return 0;
  const parsed = trustProxySchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid environment variable ACCORD_TRUST_PROXY: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

function normalise(address: string | null | undefined): string | null {
  if (!address) return null;
  let a = address.trim();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]")); // [v6]:port
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":")); // v4:port
  if (a.toLowerCase().startsWith("::ffff:") && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : null;
}

type Env = Record<string, string | undefined>;
type HeaderSource = { get(name: string): string | null };

export function clientAddress(headers: HeaderSource, env: Env = process.env): string {
  const peerHeader = env.ACCORD_PEER_HEADER;
  const peer = peerHeader ? normalise(headers.get(peerHeader)) : null;
  const hops = trustedProxyCount(env);
  if (hops > 0) {
    const forwarded = (headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    // With Accord's server the peer is the nearest proxy; without it the last entry is what the nearest proxy saw.
    const chain = peer ? [...forwarded, peer] : forwarded;
    const index = chain.length - 1 - (peer ? hops : hops - 1);
    const candidate = normalise(chain[Math.max(0, index)]);
    if (candidate) return candidate;
  }
  return peer ?? LOCAL_ADDRESS;
}
