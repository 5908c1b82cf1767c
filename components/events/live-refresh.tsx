"use client";

import { useRouter } from "next/navigation";
import { startTransition, useEffect, useRef, useState } from "react";

type Status = "connecting" | "live" | "reconnecting";

/**
 * Subscribes to the event's Server-Sent Events and re-renders the page from the server when something
 * changes (throttled to one refresh per `minGapMs`, the first one at once), so that a decision shows within
 * a second. EventSource reconnects by itself after a drop (and the browser going offline drops it at once); the
 * badge says so, and the page is refreshed once the stream is back (what changed while it was down was never sent).
 */
export function LiveRefresh({ slug, kinds, minGapMs = 500 }: { slug: string; kinds?: string[]; minGapMs?: number }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>("connecting");
  const [updates, setUpdates] = useState(0);
  const kindsKey = kinds?.join(",") ?? "";
  const lastRefresh = useRef(0);
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
    const connect = () => {
      if (stopped) return;
      const es = new EventSource(`/api/events/${encodeURIComponent(slug)}/live`);
      source = es;
      es.onopen = () => setStatus("live");
      es.onerror = () => {
        setStatus("reconnecting");
        // EventSource retries a dropped connection by itself; after an HTTP error it gives up, so start over.
        if (es.readyState === EventSource.CLOSED && !retry) {
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
  }, [slug, kindsKey, minGapMs, router]);
  const tone = status === "live" ? "bg-emerald-500" : status === "connecting" ? "bg-slate-400" : "bg-amber-500";
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-600" data-testid="live-status" data-status={status} data-updates={updates} title="Updates arrive over Server-Sent Events">
      <span className={`inline-block h-2 w-2 rounded-full ${tone} ${status === "live" ? "animate-pulse" : ""}`} aria-hidden />
      {status === "live" ? "Live" : status === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
  );
}
