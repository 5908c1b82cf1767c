import { beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import type { TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { actionTestDb, TEST_PEER_HEADER, testBrowser } from "./test-browser";

// One browser (./test-browser.ts): its cookie jar and the request headers Accord's server would pass.
const PEER = TEST_PEER_HEADER;
vi.mock("next/headers", async () => (await import("./test-browser")).nextHeadersMock());
vi.mock("next/navigation", async () => (await import("./test-browser")).nextNavigationMock());
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { signIn } = await import("./auth");
const { startReplayAction } = await import("./events");

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

/** A fresh browser signed in as `email` (none: signed out). */
async function browserOf(email?: string) {
  testBrowser.jar = new Map();
  testBrowser.headers = new Headers({ [PEER]: "192.0.2.44" });
  if (!email) return;
  await signIn({ ok: false }, form({ email, password: "a-password-for-tests" })).catch((err: Error) => {
    if (!err.message.startsWith("NEXT_REDIRECT")) throw err;
  });
  expect(testBrowser.jar.size).toBeGreaterThan(0);
}

let t: TestDb;
let eventId: string;
beforeAll(async () => {
  t = await actionTestDb();
  const passwordHash = await hashPassword("a-password-for-tests");
  for (const [email, role] of [
    ["viewer@example.org", "viewer"],
    ["annotator@example.org", "annotator"],
  ])
    await t.db.user.create({ data: { email, name: role, passwordHash, role } });
  const schemeId = await ensureHumaidScheme(t.db);
  eventId = (await t.db.event.create({ data: { slug: "replay_action", name: "r", type: "flood", schemeId, settings: {}, filters: {}, locations: [] } })).id;
  return async () => {
    delete process.env.ACCORD_PEER_HEADER;
    await t.cleanup();
  };
});

describe("the replay action", () => {
  it("refuses the signed-out and annotators; starts one replay for staff, then refuses a second while it runs", async () => {
    const start = () => startReplayAction({ ok: false }, form({ eventId }));
    const jobs = () => t.db.job.count({ where: { eventId, type: "replay" } });

    await browserOf();
    expect(await start()).toMatchObject({ ok: false, message: expect.stringMatching(/sign in/i) });
    await browserOf("annotator@example.org");
    expect(await start()).toMatchObject({ ok: false, message: expect.stringMatching(/role does not allow/i) });
    expect(await jobs()).toBe(0);

    await browserOf("viewer@example.org");
    expect(await start()).toEqual({ ok: true, message: "Replay started." });
    const job = await t.db.job.findFirstOrThrow({ where: { eventId, type: "replay" } });
    expect(job.createdById).toBe((await t.db.user.findUniqueOrThrow({ where: { email: "viewer@example.org" } })).id);
    expect(await start()).toMatchObject({ ok: false, message: expect.stringMatching(/already running/) });
    expect(await startReplayAction({ ok: false }, form({ eventId: "no-such-event" }))).toMatchObject({ ok: false, message: "That event does not exist." });
    expect(await jobs()).toBe(1);
  });
});
