import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, endSession, sessionKeyOf } from "@/lib/auth/sessions";
import { updateUserAccount } from "@/lib/auth/users";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ManualTimers } from "@/lib/util/clock";
import { liveSessionCheck } from "./live-session-check";
import { LiveSessionGuard } from "./live-sessions";
import { createLiveStream } from "./live-stream";

/** Reads until the stream has sent `ready` (it is open and registered), leaving it open. */
async function opened(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes('"kind":"ready"')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return {
    /** The rest of the stream, to its end. */
    async rest(): Promise<string> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

const endReason = (text: string) => {
  const last = text.trim().split("\n\n").at(-1) ?? "";
  const message = JSON.parse(last.replace(/^id: \d+\n/, "").replace(/^data: /, "")) as { kind: string; data?: { reason?: string } };
  return message.kind === "end" ? message.data?.reason : `(last message: ${message.kind})`;
};

describe.each(testFlavors())("live streams watch their session (%s)", (flavor) => {
  let t: TestDb;
  let adminId = "";
  beforeAll(async () => {
    t = await createTestDb(flavor);
    adminId = (await t.db.user.create({ data: { email: "admin@example.org", name: "A", passwordHash: "x", role: "admin" } })).id;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function researcher(email: string) {
    const user = await t.db.user.create({ data: { email, name: email, passwordHash: "x", role: "researcher" } });
    return { id: user.id, token: await createSession(t.db, user.id) };
  }

  function streamFor(guard: LiveSessionGuard, token: string, role = "researcher") {
    const check = liveSessionCheck(t.db, token, role);
    return createLiveStream({ eventId: "ev-1", heartbeatMs: 3_600_000, register: (end) => guard.attach(sessionKeyOf(token), check, end) });
  }

  it("sign-out ends the session's open streams at the next re-check, and not before", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock, recheckMs: 5_000 });
    const { token } = await researcher("out@example.org");
    const { token: otherToken } = await researcher("stays@example.org");
    const mine = await opened(streamFor(guard, token));
    const theirs = await opened(streamFor(guard, otherToken));
    await clock.advance(5_000);
    expect(guard.openCount(sessionKeyOf(token))).toBe(1);
    await endSession(t.db, token);
    await clock.advance(5_000);
    expect(endReason(await mine.rest())).toBe("signed-out");
    expect(guard.openCount(sessionKeyOf(token))).toBe(0);
    expect(guard.openCount(sessionKeyOf(otherToken))).toBe(1);
    await endSession(t.db, otherToken);
    await clock.advance(5_000);
    expect(endReason(await theirs.rest())).toBe("signed-out");
    expect(clock.scheduled).toBe(0);
  });

  it("an admin disabling the account ends its streams within one re-check", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock, recheckMs: 5_000 });
    const { id, token } = await researcher("disabled@example.org");
    const a = await opened(streamFor(guard, token));
    const b = await opened(streamFor(guard, token));
    await updateUserAccount(t.db, { userId: id, disabled: true, actorId: adminId });
    await clock.advance(5_000);
    expect(endReason(await a.rest())).toBe("signed-out");
    expect(endReason(await b.rest())).toBe("signed-out");
  });

  it("a role change ends the stream (role-changed, or forbidden when the new role may not view)", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock, recheckMs: 5_000 });
    const { id, token } = await researcher("demoted@example.org");
    // Written directly, so the session survives (updateUserAccount would end it): the re-check must still notice.
    const s1 = await opened(streamFor(guard, token));
    await t.db.user.update({ where: { id }, data: { role: "viewer" } });
    await clock.advance(5_000);
    expect(endReason(await s1.rest())).toBe("role-changed");
    const s2 = await opened(streamFor(guard, token, "viewer"));
    await t.db.user.update({ where: { id }, data: { role: "annotator" } });
    await clock.advance(5_000);
    expect(endReason(await s2.rest())).toBe("forbidden");
  });

  it("a session keeps at most 4 streams: a 5th closes the oldest; another session is not affected", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock });
    expect(guard.maxPerSession).toBe(4);
    const { token } = await researcher("tabs@example.org");
    const { token: otherToken } = await researcher("other-tabs@example.org");
    const others = [];
    for (let i = 0; i < 4; i++) others.push(await opened(streamFor(guard, otherToken)));
    const first = await opened(streamFor(guard, token));
    for (let i = 0; i < 3; i++) await opened(streamFor(guard, token));
    expect(guard.openCount(sessionKeyOf(token))).toBe(4);
    await opened(streamFor(guard, token));
    expect(endReason(await first.rest())).toBe("replaced");
    expect(guard.openCount(sessionKeyOf(token))).toBe(4);
    expect(guard.openCount(sessionKeyOf(otherToken))).toBe(4);
    // 100 more opened one after the other: never more than 4 held.
    for (let i = 0; i < 100; i++) await opened(streamFor(guard, token));
    expect(guard.openCount(sessionKeyOf(token))).toBe(4);
    expect(others).toHaveLength(4);
  });

  it("a stream closed by its reader unregisters (no timer left behind)", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock });
    const { token } = await researcher("closes@example.org");
    const abort = new AbortController();
    const check = liveSessionCheck(t.db, token, "researcher");
    const stream = createLiveStream({ eventId: "ev-1", signal: abort.signal, register: (end) => guard.attach(sessionKeyOf(token), check, end) });
    const open = await opened(stream);
    expect(clock.scheduled).toBe(1);
    abort.abort();
    await open.rest();
    expect(guard.openCount(sessionKeyOf(token))).toBe(0);
    expect(clock.scheduled).toBe(0);
  });

  it("a failing re-check (database hiccup) keeps the stream open", async () => {
    const clock = new ManualTimers();
    const guard = new LiveSessionGuard({ clock });
    const ended: string[] = [];
    guard.attach("k", async () => Promise.reject(new Error("database is locked")), (r) => ended.push(r));
    await clock.advance(20_000);
    expect(ended).toEqual([]);
    expect(guard.openCount("k")).toBe(1);
  });
});
