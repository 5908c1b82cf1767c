/**
 * One browser for tests of server actions: its cookie jar and the request headers Accord's server would pass
 * (scripts/serve.mjs), served by mocks of next/headers and next/navigation. In a test file:
 *   vi.mock("next/headers", async () => (await import("./test-browser")).nextHeadersMock());
 */
import { createTestDb, type TestDb } from "@/lib/db/test-db";

export const testBrowser = { jar: new Map<string, string>(), headers: new Headers() };

export function nextHeadersMock() {
  return {
    cookies: async () => ({
      get: (name: string) => (testBrowser.jar.has(name) ? { name, value: testBrowser.jar.get(name) } : undefined),
      getAll: () => [...testBrowser.jar].map(([name, value]) => ({ name, value })),
      has: (name: string) => testBrowser.jar.has(name),
      set: (name: string, value: string, opts?: { maxAge?: number }) => {
        if (opts?.maxAge === 0 || value === "") testBrowser.jar.delete(name);
        else testBrowser.jar.set(name, value);
      },
      delete: (name: string) => testBrowser.jar.delete(name),
    }),
    headers: async () => testBrowser.headers,
  };
}

/** redirect() throws as Next's does (the action contract lets it through). */
export function nextNavigationMock() {
  return {
    redirect: (url: string) => {
      throw Object.assign(new Error(`NEXT_REDIRECT ${url}`), { digest: `NEXT_REDIRECT;replace;${url};307;` });
    },
  };
}

/** The header that carries the client's address from scripts/serve.mjs (ACCORD_PEER_HEADER), in tests. */
export const TEST_PEER_HEADER = "x-accord-peer-test";

/** A SQLite test database that getDb() reads, with the secret and peer header that signing in needs. */
export async function actionTestDb(): Promise<TestDb> {
  const t = await createTestDb("sqlite");
  process.env.DATABASE_URL = t.url;
  process.env.ACCORD_SECRET = "a-test-secret-that-is-long-enough-for-accord";
  process.env.ACCORD_PEER_HEADER = TEST_PEER_HEADER;
  return t;
}
