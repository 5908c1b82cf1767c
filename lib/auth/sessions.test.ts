import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { createSession, endSession, endUserSessions, findSessionUser, SESSION_TTL_MS } from "./sessions";

describe.each(testFlavors())("server-side sessions (%s)", (flavor) => {
  let t: TestDb;
  let userId = "";
  beforeAll(async () => {
    t = await createTestDb(flavor);
    userId = (await t.db.user.create({ data: { email: "s@example.org", name: "S", passwordHash: "x", role: "admin" } })).id;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("a token copied before sign-out is refused after it; other sessions live on", async () => {
    const copied = await createSession(t.db, userId);
    const other = await createSession(t.db, userId);
    expect((await findSessionUser(t.db, copied))?.id).toBe(userId);
    await endSession(t.db, copied);
    expect(await findSessionUser(t.db, copied)).toBeNull();
    expect((await findSessionUser(t.db, other))?.id).toBe(userId);
    // The table stores no usable token.
    const ids = (await t.db.session.findMany({ where: { userId }, select: { id: true } })).map((r) => r.id);
    expect(ids).not.toContain(other);
  });

  it("ending a user's sessions keeps only the one named (a password change from that browser)", async () => {
    const here = await createSession(t.db, userId);
    const elsewhere = await createSession(t.db, userId);
    expect(await endUserSessions(t.db, userId, here)).toBeGreaterThanOrEqual(1);
    expect(await findSessionUser(t.db, elsewhere)).toBeNull();
    expect((await findSessionUser(t.db, here))?.id).toBe(userId);
    await endUserSessions(t.db, userId);
    expect(await findSessionUser(t.db, here)).toBeNull();
  });

  it("expires, and a disabled account's session is refused", async () => {
    const now = new Date();
    const token = await createSession(t.db, userId, now);
    expect(await findSessionUser(t.db, token, new Date(now.getTime() + SESSION_TTL_MS + 1))).toBeNull();
    await t.db.user.update({ where: { id: userId }, data: { disabled: true } });
    expect(await findSessionUser(t.db, token, now)).toBeNull();
    await t.db.user.update({ where: { id: userId }, data: { disabled: false } });
    expect((await findSessionUser(t.db, token, now))?.id).toBe(userId);
  });
});
