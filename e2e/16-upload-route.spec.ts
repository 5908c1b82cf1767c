import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { adversarialTsv } from "@/lib/ingest/testing/adversarial";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { E2E_DATA_DIR, E2E_PORT } from "./env";
import { signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 24: uploads go through an authenticated streaming route; nothing anonymous can make the server read a
// large body; a heavy (adversarial) import leaves the server answering pages on time.

const UPLOADS = path.join(E2E_DATA_DIR, "uploads");
const MB = 1024 * 1024;

/** Resident memory of the server: the process global-setup started and every process below it. */
function serverRss(): number {
  const root = Number(process.env.E2E_SERVER_PID);
  expect(root, "global-setup exports E2E_SERVER_PID").toBeGreaterThan(0);
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid: number): boolean => pid === root || (parent.has(pid) && pid > 1 && inTree(parent.get(pid) as number));
  let kb = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      // ended
    }
  }
  return kb * 1024;
}

/**
 * POSTs `size` bytes (declared in Content-Length) without a session; resolves with the status (or "closed" when the
 * server hung up) and how many bytes had been written when the answer came.
 */
function postLarge(urlPath: string, size: number, headers: Record<string, string> = {}): Promise<{ status: number | "closed"; sentMb: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    const req = http.request({ host: "127.0.0.1", port: E2E_PORT, path: urlPath, method: "POST", headers: { "Content-Length": String(size), ...headers } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, sentMb: sent / MB });
    });
    req.on("error", () => resolve({ status: "closed", sentMb: sent / MB }));
    const chunk = Buffer.alloc(MB, 0x61);
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

/** The server's memory once it stops growing: read again until a reading is not above the last one. */
async function settle(): Promise<number> {
  let last = serverRss();
  let settled = last;
  await expect
    .poll(
      () => {
        const now = serverRss();
        const stable = now <= last;
        last = now;
        settled = now;
        return stable;
      },
      { intervals: [250], timeout: 30_000 },
    )
    .toBe(true);
  return settled;
}

async function makeEvent(slug: string, filters: object = {}) {
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  await db.event.deleteMany({ where: { slug } });
  return db.event.create({
    data: { slug, name: slug, type: "flood", schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters, locations: [] },
  });
}

const uploadCount = () => (fs.existsSync(UPLOADS) ? fs.readdirSync(UPLOADS).length : 0);

async function signedInResearcher(page: Page) {
  const email = uniqueEmail("uploader");
  await seedUser({ email, password: "uploader-password-1", role: "researcher", name: "Uploader" });
  await signInAs(page, email, "uploader-password-1");
}

test("anonymous 50 MB bodies are refused before they are read: the upload route and a server action", async ({ request }) => {
  test.setTimeout(120_000);
  await request.get("/signin"); // warm up
  const event = await makeEvent("e2e_upload_anon");
  const route = `/api/imports?eventId=${event.id}&kind=tweets&name=big.tsv`;
  // The public sign-in action's id (anyone can read it from the client chunks; here from the build's manifest).
  const manifest = JSON.parse(fs.readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { workers: Record<string, unknown>; exportedName?: string }>;
  };
  const actionId = Object.entries(manifest.node).find(([, v]) => Object.keys(v.workers).some((w) => w.includes("signin")))?.[0];
  expect(actionId, "the sign-in page has an action").toBeTruthy();
  const action = { "Next-Action": actionId as string, "Content-Type": "multipart/form-data; boundary=x" };
  // Small bodies first, so that loading the route's and the action's code is not counted as reading a body.
  await postLarge(route, MB, { "Content-Type": "application/octet-stream" });
  await postLarge("/signin", MB, action);
  const before = await settle();
  // Refused before the body is read: the answer comes while most of the 50 MB has not even been sent.
  const upload = await postLarge(route, 50 * MB, { "Content-Type": "application/octet-stream" });
  // 413 from the request guard (no session: at most 1 MB), 401 from the route, or the connection closed.
  expect(upload.status === 413 || upload.status === 401 || upload.status === "closed", `status ${upload.status}`).toBe(true);
  expect(upload.sentMb, "MB sent before the upload route answered").toBeLessThan(25);
  const signin = await postLarge("/signin", 50 * MB, action);
  // Next.js reads a server action's body to its size limit and discards the rest; memory shows nothing was kept.
  expect(signin.status === "closed" || signin.status >= 400).toBe(true);
  const after = await settle();
  // What is left in memory: none of the bodies (two would be 100 MB); the allowance covers the collector's timing.
  expect(after - before, `RSS ${Math.round(before / MB)} → ${Math.round(after / MB)} MB`).toBeLessThan(40 * MB);
  console.info(`[rss] ${Math.round(before / MB)} MB before, ${Math.round(after / MB)} MB after two anonymous 50 MB POSTs, answered after ${upload.sentMb} and ${signin.sentMb} MB sent`);
});

test("an upload over the event's limit gets 413 and leaves nothing stored", async ({ page }) => {
  await signedInResearcher(page);
  const event = await makeEvent("e2e_upload_limit", { limits: { maxFileBytes: 100_000 } });
  const files = uploadCount();
  const body = adversarialTsv({ rows: 400 }); // ~300 KB
  const declared = await page.request.post(`/api/imports?eventId=${event.id}&kind=tweets&name=big.tsv`, { data: Buffer.from(body), headers: { "Content-Type": "application/octet-stream" } });
  expect(declared.status()).toBe(413);
  // Without a Content-Length (chunked): the limit is enforced while reading.
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const chunked = await new Promise<number | "closed">((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port: E2E_PORT, path: `/api/imports?eventId=${event.id}&kind=tweets&name=big.tsv`, method: "POST", headers: { Cookie: cookie, "Transfer-Encoding": "chunked" } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", () => resolve("closed"));
    for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
    req.end();
  });
  expect(chunked).toBe(413);
  expect(await e2eDb().importBatch.count({ where: { eventId: event.id } })).toBe(0);
  expect(uploadCount()).toBe(files);
});

test("an adversarial import runs while a route handler is requested: requests are answered while the import is mid-way; the funnel shows the cap and the time per step", async ({ page }) => {
  test.setTimeout(300_000);
  await signedInResearcher(page);
  const event = await makeEvent("e2e_upload_adversarial");
  const file = path.join(E2E_DATA_DIR, "adversarial.tsv");
  fs.writeFileSync(file, adversarialTsv({ rows: 3_000 }));
  await page.goto(`/events/${event.slug}/data`);

  // The order of events, not their times (the figures are in scripts/bench/import-load.ts): the import's job is
  // seen running, at a filtering step, in an answer from a route handler that checks the session and reads the database
  // (each state recorded as the status route answers it).
  const seen: string[] = [];
  const jobState = async (): Promise<string> => {
    const job = await e2eDb().job.findFirst({ where: { eventId: event.id, type: "import" }, orderBy: { createdAt: "desc" }, select: { id: true } });
    if (!job) return "none";
    const res = await page.request.get(`/api/jobs/${job.id}`);
    if (!res.ok()) return `http ${res.status()}`;
    const body = (await res.json()) as { state?: string; message?: string | null };
    const what = `${body.state}: ${body.message ?? ""}`;
    if (seen[seen.length - 1] !== what) seen.push(what);
    return what;
  };

  await page.locator("input#file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByTestId("upload-form").getByRole("status")).toContainText("the import is running", { timeout: 60_000 });
  const row = page.getByTestId("import-row").filter({ hasText: "adversarial.tsv" }).first();
  // Seen mid-way: the job reports its filtering step while it runs (not only queued, then done).
  await expect.poll(jobState, { intervals: [100], timeout: 240_000 }).toMatch(/^running: filtering|^succeeded/);
  await expect(row.getByText("completed", { exact: true })).toBeVisible({ timeout: 240_000 });
  console.info(`[job] ${seen.join(" → ")}`);
  expect(seen.some((s) => /^running: filtering/.test(s)), seen.join(" → ")).toBe(true);

  await expect(row.getByTestId("import-funnel")).toContainText(/approximate for [\d,]+ rows/);
  await expect(row.getByTestId("import-funnel")).toContainText(/\d+(\.\d)? m?s/);
  // A completed import keeps its upload for re-runs (ACCORD_UPLOAD_RETENTION_DAYS unset).
  const job = await e2eDb().job.findFirst({ where: { eventId: event.id, type: "import" }, orderBy: { createdAt: "desc" } });
  expect(fs.existsSync((job?.payload as { filePath: string }).filePath)).toBe(true);
  console.info(`[funnel] ${await row.getByTestId("import-funnel").innerText()}`);
});
