import { type Clock, systemClock } from "@/lib/util/clock";

/**
 * Keeps the live streams (SSE) of each sign-in session in check: the session is read again every `recheckMs` and
 * every stream of a session that ended (sign-out, disabled account, role change) is closed; a session keeps at most
 * `maxPerSession` streams open, a new one closing its oldest (the tab the user just opened is the one that should
 * work). One timer per session with open streams, none once they are all closed. In-process: each web process
 * counts its own streams.
 */
export type LiveEndReason = "signed-out" | "forbidden" | "role-changed" | "replaced";

/** What a re-check finds: "ok", or why the session's streams must end. A thrown error counts as "ok" (transient). */
export type SessionCheck = () => Promise<"ok" | Exclude<LiveEndReason, "replaced">>;

type OpenStream = { end(reason: LiveEndReason): void };
type SessionStreams = { streams: OpenStream[]; timer: { stop(): void }; check: SessionCheck };

export const LIVE_RECHECK_MS = 5_000;
export const LIVE_MAX_STREAMS_PER_SESSION = 4;

export class LiveSessionGuard {
  private readonly sessions = new Map<string, SessionStreams>();
  private readonly clock: Clock;
  private readonly recheckMs: number;
  readonly maxPerSession: number;

  constructor({ clock = systemClock, recheckMs = LIVE_RECHECK_MS, maxPerSession = LIVE_MAX_STREAMS_PER_SESSION }: { clock?: Clock; recheckMs?: number; maxPerSession?: number } = {}) {
    this.clock = clock;
    this.recheckMs = recheckMs;
    this.maxPerSession = maxPerSession;
  }

  /**
   * Registers a stream of the session `key` (an opaque id of the session, never the cookie's token itself);
   * `end` closes it with a reason. Returns the function that unregisters it (call it when the stream closes).
   */
  attach(key: string, check: SessionCheck, end: (reason: LiveEndReason) => void): () => void {
    let entry = this.sessions.get(key);
    if (!entry) {
      const created: SessionStreams = { streams: [], check, timer: this.clock.every(this.recheckMs, () => this.recheck(key)) };
      this.sessions.set(key, created);
      entry = created;
    }
    entry.check = check;
    const stream: OpenStream = { end };
    entry.streams.push(stream);
    while (entry.streams.length > this.maxPerSession) {
      const oldest = entry.streams.shift() as OpenStream;
      oldest.end("replaced");
    }
    return () => this.detach(key, stream);
  }

  /** How many streams the session has open (for tests and the bench). */
  openCount(key: string): number {
    return this.sessions.get(key)?.streams.length ?? 0;
  }

  private detach(key: string, stream: OpenStream): void {
    const entry = this.sessions.get(key);
    if (!entry) return;
    entry.streams = entry.streams.filter((s) => s !== stream);
    if (entry.streams.length === 0) {
      entry.timer.stop();
      this.sessions.delete(key);
    }
  }

  private async recheck(key: string): Promise<void> {
    const entry = this.sessions.get(key);
    if (!entry) return;
    let verdict: Awaited<ReturnType<SessionCheck>>;
    try {
      verdict = await entry.check();
    } catch {
      return; // a database hiccup does not sign anyone out; the next re-check decides
    }
    if (verdict === "ok") return;
    for (const stream of [...entry.streams]) stream.end(verdict);
  }
}

// One guard per process, kept on globalThis so every bundle of the server shares the counts.
const g = globalThis as unknown as { __accordLiveGuard?: LiveSessionGuard };
export function liveSessionGuard(): LiveSessionGuard {
  return (g.__accordLiveGuard ??= new LiveSessionGuard());
}
