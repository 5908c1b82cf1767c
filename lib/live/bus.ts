import { EventEmitter } from "node:events";

/**
 * Live updates for the dashboard: the sync loop publishes what it decided; the SSE route handler
 * subscribes per event. One process: this in-process emitter (kept on globalThis so the Next.js
 * bundles and the job runner share it). Several processes on PostgreSQL: lib/live/pg-notify.ts relays
 * through LISTEN/NOTIFY into this same emitter.
 */
export type LiveMessage = {
  eventId: string;
  kind: string; // decision | hit | import | job | metrics ...
  at: number; // epoch ms
  data?: Record<string, unknown>;
};

type Relay = (message: LiveMessage) => void;

// Kept on globalThis (the other global Accord keeps): the sync loop and jobs publish from the instrumentation bundle
// while the SSE route subscribes from the routes' bundle; one emitter (and relay) per process joins them.
const g = globalThis as unknown as { __accordBus?: EventEmitter; __accordBusRelay?: Relay | null };
const bus: EventEmitter = (g.__accordBus ??= new EventEmitter().setMaxListeners(0));

/** Publishes a message to this process's subscribers and, when set, to other processes. */
export function publishLive(message: Omit<LiveMessage, "at"> & { at?: number }): void {
  const full: LiveMessage = { ...message, at: message.at ?? Date.now() };
  if (g.__accordBusRelay) g.__accordBusRelay(full);
  else emitLocal(full);
}

/** Delivers a message to this process's subscribers only (used by the cross-process relay). */
export function emitLocal(message: LiveMessage): void {
  bus.emit("message", message);
}

export function subscribeLive(listener: (message: LiveMessage) => void): () => void {
  bus.on("message", listener);
  return () => bus.off("message", listener);
}

/** Installs the cross-process relay (it must call emitLocal for messages it receives, including its own). */
export function setLiveRelay(relay: Relay | null): void {
  g.__accordBusRelay = relay;
}
