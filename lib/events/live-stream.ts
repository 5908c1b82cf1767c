import { type LiveMessage, subscribeLive } from "@/lib/live/bus";

/**
 * The Server-Sent Events stream of one event: every live message of the event (decision, hit, metrics,
 * analysis, import, job, sync-error …) as a `data:` line with its JSON, a comment every `heartbeatMs` so
 * that proxies keep the connection open, and `retry:` so that the browser's EventSource reconnects by
 * itself after a drop. The stream ends (and unsubscribes) when the request is aborted.
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
}: {
  eventId: string;
  signal?: AbortSignal;
  heartbeatMs?: number;
  retryMs?: number;
  subscribe?: (listener: (m: LiveMessage) => void) => () => void;
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
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
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
    },
    cancel() {
      cleanup?.();
    },
  });
}
