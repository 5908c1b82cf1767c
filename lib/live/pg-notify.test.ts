import { afterAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { type LiveMessage, publishLive, subscribeLive } from "./bus";
import { createPgRelay, decodeLiveMessage, encodeLiveMessage, MAX_PAYLOAD_BYTES, startPgRelay, stopPgRelay } from "./pg-notify";

describe("live message payloads", () => {
  it("round-trips, and drops the data of a message too large for NOTIFY", () => {
    const m: LiveMessage = { eventId: "e1", kind: "decision", at: 123, data: { reason: "ok" } };
    expect(decodeLiveMessage(encodeLiveMessage(m))).toEqual(m);
    const big: LiveMessage = { eventId: "e1", kind: "hit", at: 5, data: { text: "x".repeat(10_000) } };
    const encoded = encodeLiveMessage(big);
    expect(Buffer.byteLength(encoded)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(decodeLiveMessage(encoded)).toEqual({ eventId: "e1", kind: "hit", at: 5, data: { truncated: true } });
    expect(decodeLiveMessage("not json")).toBeNull();
    expect(decodeLiveMessage('{"kind":"x"}')).toBeNull();
  });

  it("does nothing on SQLite", async () => {
    expect(await startPgRelay("file:./data/whatever.db")).toBe(false);
  });
});

const waitFor = <T>(p: Promise<T>, ms = 10_000) =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timed out waiting for a notification")), ms))]);

for (const flavor of testFlavors().filter((f) => f === "postgres")) {
  describe(`LISTEN/NOTIFY relay on ${flavor}`, () => {
    let t: TestDb;
    afterAll(async () => {
      await stopPgRelay();
      await t?.cleanup();
    });

    it("delivers a message published by one process to every listening process, itself included", async () => {
      t = await createTestDb("postgres");
      const gotA: LiveMessage[] = [];
      const gotB: LiveMessage[] = [];
      let resolveA: () => void = () => undefined;
      let resolveB: () => void = () => undefined;
      const a = createPgRelay({ url: t.url, onMessage: (m) => (gotA.push(m), resolveA()) });
      const b = createPgRelay({ url: t.url, onMessage: (m) => (gotB.push(m), resolveB()) });
      await waitFor(Promise.all([a.ready, b.ready]));
      const both = Promise.all([new Promise<void>((r) => (resolveA = r)), new Promise<void>((r) => (resolveB = r))]);
      a.publish({ eventId: "ev", kind: "decision", at: 42, data: { decision: "approve" } });
      await waitFor(both);
      expect(gotA).toEqual([{ eventId: "ev", kind: "decision", at: 42, data: { decision: "approve" } }]);
      expect(gotB).toEqual(gotA);
      await a.stop();
      await b.stop();
      // Stopped: publishing falls back to local delivery.
      const local: LiveMessage[] = [];
      const c = createPgRelay({ url: t.url, onMessage: () => undefined, onLocalFallback: (m) => local.push(m) });
      await c.stop();
      c.publish({ eventId: "ev", kind: "x", at: 1 });
      expect(local).toHaveLength(1);
    });

    it("startPgRelay routes publishLive through the database to this process's subscribers", async () => {
      expect(await startPgRelay(t.url)).toBe(true);
      const received = new Promise<LiveMessage>((resolve) => {
        const off = subscribeLive((m) => {
          if (m.kind === "relay-test") {
            off();
            resolve(m);
          }
        });
      });
      publishLive({ eventId: "ev-relay", kind: "relay-test", data: { n: 1 } });
      const m = await waitFor(received);
      expect(m).toMatchObject({ eventId: "ev-relay", kind: "relay-test", data: { n: 1 } });
    });
  });
}
