import { type LiveMessage, subscribeLive } from "@/lib/live/bus";
import type { LiveEndReason } from "./live-sessions";

/**
 * The Server-Sent Events stream of one event: every live message of the event (decision, hit, metrics,
 * analysis, import, job, sync-error …) as a `data:` line with its JSON, a comment every `heartbeatMs` so
 * that proxies keep the connection open, and `retry:` so that the browser's EventSource reconnects by
 * itself after a drop. The stream ends (and unsubscribes) when the request is aborted, or when `register`'s `end` is
 * called (the session ended, or a newer stream replaced it): then a last `{kind: "end", data: {reason}}` message tells
 * the page not to reconnect.
 */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform: nothing on the way (Next's compression included) may buffer or compress the stream.
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

export function sseMessage(message: LiveMessage, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ""}data: ${JSON.stringify(message)}\n\n`;
}

export function createLiveStream({
  eventId,
  signal,
  heartbeatMs = 15_000,
  retryMs = 2_000,
  subscribe = subscribeLive,
  register,
}: {
  eventId: string;
  signal?: AbortSignal;
  heartbeatMs?: number;
  retryMs?: number;
  subscribe?: (listener: (m: LiveMessage) => void) => () => void;
  /** Hands the stream's `end` to whoever watches the session; returns how to stop watching. */
  register?: (end: (reason: LiveEndReason) => void) => () => void;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let counter = 0;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const unsubscribe = subscribe((m) => {
        if (m.eventId === eventId) send(sseMessage(m, ++counter));
      });
      const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
      heartbeat.unref?.();
      let unregister: (() => void) | null = null;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        unregister?.();
        try {
          controller.close();
        } catch {
          // already closed by the consumer
        }
      };
      cleanup = close;
      signal?.addEventListener("abort", close, { once: true });
      send(`retry: ${retryMs}\n`);
      send(sseMessage({ eventId, kind: "ready", at: Date.now() }));
      if (register) {
        unregister = register((reason) => {
          send(sseMessage({ eventId, kind: "end", at: Date.now(), data: { reason } }));
          close();
        });
        if (closed) unregister();
      }
    },
    cancel() {
      cleanup?.();
    },
  });
}
