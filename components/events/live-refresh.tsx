"use client";

import { useRouter } from "next/navigation";
import { startTransition, useEffect, useRef, useState } from "react";

type Status = "connecting" | "live" | "reconnecting" | "paused";

/** Where the page goes when its session has ended: the sign-in page, back here afterwards. */
function signInPath(): string {
  return `/signin?next=${encodeURIComponent(`${window.location.pathname}${window.location.search}`)}`;
}

/**
 * Subscribes to the event's Server-Sent Events and re-renders the page from the server when something
 * changes (throttled to one refresh per `minGapMs`, the first one at once), so that a decision shows within
 * a second. EventSource reconnects by itself after a drop (and the browser going offline drops it at once); the
 * badge says so, and the page is refreshed once the stream is back (what changed while it was down was never sent).
 * The server ends the stream with an `end` message when the session ended (→ the sign-in page), the role changed (→ the
 * page reloads, showing what the role may see) or a newer tab took its place (→ "Paused", resumed by a click). A
 * reconnect refused outright is told apart by a probe: 401 means the session ended.
 */
export function LiveRefresh({ slug, kinds, minGapMs = 500 }: { slug: string; kinds?: string[]; minGapMs?: number }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>("connecting");
  const [updates, setUpdates] = useState(0);
  const kindsKey = kinds?.join(",") ?? "";
  const lastRefresh = useRef(0);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const wanted = kindsKey ? new Set(kindsKey.split(",")) : null;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    let connectedBefore = false;
    const refresh = () => {
      if (timer) return;
      const wait = Math.max(0, minGapMs - (Date.now() - lastRefresh.current));
      timer = setTimeout(() => {
        timer = null;
        lastRefresh.current = Date.now();
        startTransition(() => router.refresh());
      }, wait);
    };
    const goToSignIn = () => router.replace(signInPath());
    const url = `/api/events/${encodeURIComponent(slug)}/live`;
    const connect = () => {
      if (stopped) return;
      const es = new EventSource(url);
      source = es;
      es.onopen = () => setStatus("live");
      es.onerror = () => {
        if (stopped) return;
        setStatus("reconnecting");
        // EventSource retries a dropped connection by itself; after an HTTP error it gives up: ask why, then start over.
        if (es.readyState === EventSource.CLOSED && !retry) {
          void fetch(`${url}?probe=1`, { cache: "no-store" })
            .then((r) => {
              if (r.status === 401 && !stopped) {
                stopped = true;
                goToSignIn();
              }
            })
            .catch(() => undefined);
          retry = setTimeout(() => {
            retry = null;
            connect();
          }, 3000);
        }
      };
      es.onmessage = (e: MessageEvent<string>) => {
        setStatus("live");
        let kind = "";
        try {
          kind = (JSON.parse(e.data) as { kind?: string }).kind ?? "";
        } catch {
          return;
        }
        if (kind === "end") {
          // The server closed the stream on purpose: do not reconnect.
          es.close();
          stopped = true;
          let reason = "";
          try {
            reason = (JSON.parse(e.data) as { data?: { reason?: string } }).data?.reason ?? "";
          } catch {
            // reason stays empty
          }
          if (reason === "signed-out") goToSignIn();
          else if (reason === "role-changed" || reason === "forbidden") window.location.reload();
          else setStatus("paused");
          return;
        }
        if (kind === "ready") {
          if (connectedBefore) refresh();
          connectedBefore = true;
          return;
        }
        if (wanted && !wanted.has(kind)) return;
        setUpdates((n) => n + 1);
        refresh();
      };
    };
    // Offline, a connection can look open for minutes: close it now and start over once the network is back.
    const offline = () => {
      source?.close();
      setStatus("reconnecting");
    };
    const online = () => {
      if (source?.readyState !== EventSource.CLOSED) return;
      if (retry) clearTimeout(retry);
      retry = null;
      connect();
    };
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    connect();
    return () => {
      stopped = true;
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      source?.close();
      if (timer) clearTimeout(timer);
      if (retry) clearTimeout(retry);
    };
  }, [slug, kindsKey, minGapMs, router, generation]);
  const tone = status === "live" ? "bg-emerald-500" : status === "connecting" || status === "paused" ? "bg-slate-400" : "bg-amber-500";
  if (status === "paused") {
    return (
      <span className="inline-flex items-center gap-1.5 text-xs text-slate-600" data-testid="live-status" data-status={status} data-updates={updates}>
        <span className={`inline-block h-2 w-2 rounded-full ${tone}`} aria-hidden />
        Paused: live updates went to a newer tab.
        <button type="button" className="underline" onClick={() => { setStatus("connecting"); setGeneration((g) => g + 1); }}>
          Resume
        </button>
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-600" data-testid="live-status" data-status={status} data-updates={updates} title="Updates arrive over Server-Sent Events">
      <span className={`inline-block h-2 w-2 rounded-full ${tone} ${status === "live" ? "animate-pulse" : ""}`} aria-hidden />
      {status === "live" ? "Live" : status === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
  );
}
