import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { serverActionModules } from "./server-action-modules";

// No session: an empty cookie jar. redirect() throws like Next's does.
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
  headers: async () => new Headers(),
}));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error(`NEXT_REDIRECT ${url}`), { digest: `NEXT_REDIRECT;replace;${url};307;` });
  },
  notFound: () => {
    throw Object.assign(new Error("NEXT_NOT_FOUND"), { digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

/** Actions that must work signed out. Anything else that is exported from a "use server" module must refuse. */
const PUBLIC_ACTIONS = new Set(["auth.signIn", "auth.setupFirstAdmin", "auth.signOut"]);

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb("sqlite");
  // getDb() reads DATABASE_URL: point it at the test database with one user in it.
  process.env.DATABASE_URL = t.url;
  await t.db.user.create({ data: { email: "someone@example.org", name: "S", passwordHash: "x", role: "admin" } });
  return () => t.cleanup();
});

describe("server actions refuse the signed-out", () => {
  const modules = serverActionModules();
  it("finds the action modules", () => {
    expect(modules.map((m) => path.basename(m))).toEqual(expect.arrayContaining(["auth.ts", "users.ts"]));
  });

  for (const file of modules) {
    const name = path.basename(file).replace(/\.tsx?$/, "");
    it(`${path.relative(process.cwd(), file)}: every exported action refuses`, async () => {
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
      const exported = Object.entries(mod).filter(([, v]) => typeof v === "function") as Array<[string, (...a: unknown[]) => Promise<unknown>]>;
      expect(exported.length).toBeGreaterThan(0);
      for (const [fn, action] of exported) {
        if (PUBLIC_ACTIONS.has(`${name}.${fn}`)) continue;
        let outcome: unknown;
        try {
          outcome = await action({ ok: false }, new FormData());
        } catch (err) {
          outcome = err;
        }
        const refused =
          (outcome instanceof Error && (outcome.name === "AuthError" || /NEXT_REDIRECT .*\/signin/.test(outcome.message))) ||
          (typeof outcome === "object" && outcome !== null && (outcome as { ok?: boolean }).ok === false && /sign in/i.test(String((outcome as { message?: string }).message)));
        expect(refused, `${name}.${fn} did not refuse a signed-out call: ${String((outcome as { message?: string })?.message ?? outcome)}`).toBe(true);
      }
    });
  }
});
