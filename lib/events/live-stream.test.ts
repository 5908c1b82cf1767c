import { describe, expect, it } from "vitest";
import { publishLive } from "@/lib/live/bus";
import { createLiveStream, sseMessage } from "./live-stream";

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, predicate: (text: string) => boolean): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!predicate(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("the SSE stream of an event", () => {
  it("sends retry and ready first, then only this event's messages, heartbeats, and stops on abort", async () => {
    const abort = new AbortController();
    const stream = createLiveStream({ eventId: "ev-1", signal: abort.signal, heartbeatMs: 50 });
    const reader = stream.getReader();
    const head = await readUntil(reader, (t) => t.includes('"kind":"ready"'));
    expect(head.startsWith("retry: 2000\n")).toBe(true);
    publishLive({ eventId: "ev-2", kind: "decision", data: { assignmentId: "other" } });
    publishLive({ eventId: "ev-1", kind: "decision", data: { assignmentId: "a1", decision: "approve" } });
    const body = await readUntil(reader, (t) => t.includes('"a1"') && t.includes(": heartbeat"));
    expect(body).not.toContain('"other"');
    const line = body.split("\n\n").find((b) => b.includes('"a1"')) as string;
    expect(line).toMatch(/^id: 1\ndata: \{/);
    const message = JSON.parse(line.split("data: ")[1]);
    expect(message).toMatchObject({ eventId: "ev-1", kind: "decision", data: { assignmentId: "a1", decision: "approve" } });
    abort.abort();
    const rest = await readUntil(reader, () => false);
    expect(typeof rest).toBe("string");
    const after = await reader.read();
    expect(after.done).toBe(true);
  });

  it("formats messages as SSE data lines", () => {
    expect(sseMessage({ eventId: "e", kind: "hit", at: 5 }, 3)).toBe('id: 3\ndata: {"eventId":"e","kind":"hit","at":5}\n\n');
  });
});
