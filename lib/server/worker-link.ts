import { emitLocal, type LiveMessage, setLiveRelay } from "@/lib/live/bus";

/**
 * The link between `npm start`'s two processes on SQLite (scripts/supervisor.mjs): the worker (`accord worker
 * --local`) sends each live update it publishes to the supervisor over the IPC channel, which passes it to the web
 * process; there it reaches the open live streams like one published in-process. (On PostgreSQL the LISTEN/NOTIFY
 * relay, lib/live/pg-notify.ts, does this for any number of processes.)
 */
type Channel = {
  on(event: "message", listener: (m: unknown) => void): unknown;
  off(event: "message", listener: (m: unknown) => void): unknown;
  send?: (message: unknown, sendHandle?: undefined, options?: undefined, callback?: (error: Error | null) => void) => boolean;
  connected?: boolean;
};

export type LiveEnvelope = { type: "live"; message: LiveMessage };

function isEnvelope(m: unknown): m is LiveEnvelope {
  if (!m || typeof m !== "object") return false;
  const { type, message } = m as { type?: unknown; message?: Partial<LiveMessage> };
  return type === "live" && !!message && typeof message.eventId === "string" && typeof message.kind === "string" && typeof message.at === "number";
}

/** Web side: delivers the worker's live updates to this process's subscribers. Returns the stop function. */
export function receiveWorkerLive(channel: Channel = process): () => void {
  const onMessage = (m: unknown) => {
    if (isEnvelope(m)) emitLocal(m.message);
  };
  channel.on("message", onMessage);
  return () => channel.off("message", onMessage);
}

/** Worker side: live updates go to this process's subscribers and to the supervisor. False without an IPC channel. */
export function sendLiveToSupervisor(channel: Channel = process): boolean {
  if (!channel.send) return false;
  const send = channel.send.bind(channel);
  setLiveRelay((message) => {
    emitLocal(message);
    if (channel.connected !== false) {
      // A failed send (the supervisor is gone: this process is about to be stopped) is dropped.
      send({ type: "live", message } satisfies LiveEnvelope, undefined, undefined, () => undefined);
    }
  });
  return true;
}
