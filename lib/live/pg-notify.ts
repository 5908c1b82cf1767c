import pg from "pg";
import { databaseUrl, dbFlavor } from "@/lib/db/url";
import { emitLocal, type LiveMessage, setLiveRelay } from "./bus";

/**
 * Live updates across processes on PostgreSQL: every process LISTENs on one channel and publishes with
 * NOTIFY, so a decision made by `accord worker` reaches the dashboard served by another process. Each
 * process delivers what it receives (its own messages included) to its in-process subscribers
 * (lib/live/bus.ts). While the connection is down, messages still reach this process's own subscribers,
 * and the relay reconnects with backoff.
 */
export const LIVE_CHANNEL = "accord_live";

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; larger messages travel without their data. */
export const MAX_PAYLOAD_BYTES = 7900;

export type PgRelay = {
  /** Resolves once the first LISTEN succeeded. */
  ready: Promise<void>;
  publish(message: LiveMessage): void;
  stop(): Promise<void>;
  /** True while LISTENing. */
  connected(): boolean;
};

export function encodeLiveMessage(message: LiveMessage): string {
  const full = JSON.stringify(message);
  if (Buffer.byteLength(full, "utf8") <= MAX_PAYLOAD_BYTES) return full;
  return JSON.stringify({ eventId: message.eventId, kind: message.kind, at: message.at, data: { truncated: true } });
}

export function decodeLiveMessage(payload: string | undefined): LiveMessage | null {
  if (!payload) return null;
  try {
    const m = JSON.parse(payload) as Partial<LiveMessage>;
    if (typeof m.eventId !== "string" || typeof m.kind !== "string") return null;
    return { eventId: m.eventId, kind: m.kind, at: typeof m.at === "number" ? m.at : Date.now(), data: m.data && typeof m.data === "object" ? m.data : undefined };
  } catch {
    return null;
  }
}

export function createPgRelay({
  url,
  channel = LIVE_CHANNEL,
  onMessage,
  onLocalFallback = onMessage,
  log = (msg: string) => console.warn(`[accord] live relay: ${msg}`),
}: {
  url: string;
  channel?: string;
  onMessage: (message: LiveMessage) => void;
  /** Where a message goes when it cannot be sent (defaults to onMessage: this process still sees it). */
  onLocalFallback?: (message: LiveMessage) => void;
  log?: (msg: string) => void;
}): PgRelay {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let client: pg.Client | null = null;
  let listening = false;
  let stopped = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (resolveReady = r));

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("notification", (n) => {
      if (n.channel !== channel) return;
      const message = decodeLiveMessage(n.payload);
      if (message) onMessage(message);
    });
    c.on("error", (err) => {
      log(`connection error: ${err.message}`);
      drop(c);
    });
    c.on("end", () => drop(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (stopped) {
        await c.end().catch(() => undefined);
        return;
      }
      listening = true;
      attempt = 0;
      resolveReady();
    } catch (err) {
      log(`cannot listen: ${err instanceof Error ? err.message : String(err)}`);
      drop(c);
    }
  };

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    listening = false;
    client = null;
    c.end().catch(() => undefined);
    if (stopped || retryTimer) return;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(attempt++, 7));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
    retryTimer.unref?.();
  };

  void connect();

  return {
    ready,
    connected: () => listening,
    publish(message) {
      const c = client;
      if (!c || !listening) {
        onLocalFallback(message);
        return;
      }
      c.query("SELECT pg_notify($1, $2)", [channel, encodeLiveMessage(message)]).catch((err: Error) => {
        log(`notify failed: ${err.message}`);
        onLocalFallback(message);
      });
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      listening = false;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}

let installed: PgRelay | null = null;

/**
 * Installs the LISTEN/NOTIFY relay for this process when DATABASE_URL is PostgreSQL (called once at
 * start-up by lib/startup/background.ts and `accord worker`). Returns whether a relay is installed. On
 * SQLite there is one process, and the in-process bus needs no relay.
 */
export async function startPgRelay(url: string = databaseUrl(), { waitMs = 5_000 }: { waitMs?: number } = {}): Promise<boolean> {
  if (dbFlavor(url) !== "postgres") return false;
  if (installed) return true;
  const relay = createPgRelay({ url, onMessage: emitLocal });
  installed = relay;
  setLiveRelay((message) => relay.publish(message));
  // Do not hold start-up hostage to the database: publish falls back to local delivery until LISTEN works.
  await Promise.race([relay.ready, new Promise((r) => setTimeout(r, waitMs).unref?.())]);
  return true;
}

export async function stopPgRelay(): Promise<void> {
  const relay = installed;
  installed = null;
  setLiveRelay(null);
  if (relay) await relay.stop();
}
