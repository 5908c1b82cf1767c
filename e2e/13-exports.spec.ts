import fs from "node:fs";
import { expect, request, test, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { seedEventFixture } from "@/lib/demo/fixture";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// The researcher downloads what the crowd agreed on from the event's Downloads menu: the agreed-labels CSV
// (exact header, votes, formula cells neutralised), the HumAID-format zip (70/10/20 splits + README), the
// judgments and the audit log.

/** Opens the event's Downloads menu (unless open) and downloads one of its links. */
async function download(page: Page, name: string | RegExp): Promise<{ file: string; suggested: string }> {
  const menu = page.locator("details").filter({ hasText: "Downloads ▾" });
  if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) await menu.locator("summary").click();
  const waiting = page.waitForEvent("download");
  await page.getByRole("link", { name }).click();
  const d = await waiting;
  return { file: (await d.path()) as string, suggested: d.suggestedFilename() };
}

test("agreed labels CSV, HumAID zip, judgments and audit log from the Downloads menu", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("exports");
  const password = "exports-password-1";
  await seedUser({ email, password, role: "viewer", name: "Export Reader" });
  const db = e2eDb();
  const ev = await seedEventFixture(db, {
    slug: "e2e_exports",
    name: "Exports test earthquake",
    tweets: 700,
    gold: 30,
    idBase: 1_600_000_000_000_000_000n,
    textOf: (i, text) => (i === 0 ? `=HYPERLINK("http://evil.example","click") ${text}` : i === 1 ? `-2 dead\tafter the quake\nin Villa Mar ${text}` : text),
    campaign: { hits: 30, seed: 31 },
  });
  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}`);
  await screenshot(page, "downloads-menu-closed");

  const labels = await download(page, "Agreed labels (CSV)");
  expect(labels.suggested).toMatch(/^e2e_exports_agreed_labels_\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync(labels.file, "utf8");
  expect(text.split("\n")[0]).toBe("tweet_id,tweet_text,class_label,event,agreement,judgments,votes");
  const rows = (parse(text) as string[][]).slice(1);
  expect(rows.length).toBe(ev.campaign!.acceptedTweets);
  const accepted = await db.acceptedLabel.findMany({ where: { eventId: ev.eventId }, include: { tweet: { select: { externalId: true, text: true } } } });
  const byId = new Map(accepted.map((a) => [a.tweet.externalId, a]));
  for (const r of rows) {
    const a = byId.get(r[0]);
    expect(a, r[0]).toBeDefined();
    expect(r[2]).toBe(a!.label);
    expect(r[3]).toBe("e2e_exports");
    expect(Number(r[5])).toBe(a!.totalVotes);
    expect(r[6]).toMatch(/^[a-z_]+:\d+(;[a-z_]+:\d+)*$/);
    expect(/^[=+\-@]/.test(r[1])).toBe(false);
  }
  const formula = rows.find((r) => r[1].includes("HYPERLINK"));
  if (formula) expect(formula[1].startsWith("'=HYPERLINK")).toBe(true);

  const withUnresolved = await download(page, "Agreed labels + unresolved tweets (CSV)");
  const all = (parse(fs.readFileSync(withUnresolved.file, "utf8")) as string[][]).slice(1);
  expect(all.filter((r) => r[2] === "").length).toBe(ev.campaign!.unresolvedTweets);

  const zip = await download(page, "HumAID format: train/dev/test (zip)");
  expect(zip.suggested).toMatch(/^e2e_exports_humaid_.*\.zip$/);
  const files = unzipSync(fs.readFileSync(zip.file));
  expect(Object.keys(files).sort()).toEqual(["README.md", "events/e2e_exports/e2e_exports_dev.tsv", "events/e2e_exports/e2e_exports_test.tsv", "events/e2e_exports/e2e_exports_train.tsv", "manifest.json"]);
  const split = (s: string) => strFromU8(files[`events/e2e_exports/e2e_exports_${s}.tsv`]).trimEnd().split("\n");
  const [train, dev, test_] = [split("train"), split("dev"), split("test")];
  for (const f of [train, dev, test_]) {
    expect(f[0]).toBe("tweet_id\ttweet_text\tclass_label");
    for (const line of f.slice(1)) expect(line.split("\t")).toHaveLength(3);
  }
  const n = train.length + dev.length + test_.length - 3;
  const big = (await db.acceptedLabel.groupBy({ by: ["label"], where: { eventId: ev.eventId }, _count: { _all: true } })).filter((g) => g._count._all >= 15);
  expect(n).toBe(big.reduce((s, g) => s + g._count._all, 0));
  expect(test_.length - 1).toBeGreaterThan((n * 0.17) | 0);
  expect(dev.length - 1).toBeGreaterThan((n * 0.07) | 0);
  const readme = strFromU8(files["README.md"]);
  expect(readme).toContain("Table 6");
  expect(readme).toContain(`| **total** | ${train.length - 1} | ${dev.length - 1} | ${test_.length - 1} | ${n} |`);

  const judgments = await download(page, "All judgments (CSV)");
  const j = parse(fs.readFileSync(judgments.file, "utf8")) as string[][];
  expect(j[0].slice(0, 3)).toEqual(["tweet_id", "worker_id", "label"]);
  expect(j.length - 1).toBe(ev.campaign!.judgments);

  const audit = await download(page, "Audit log (CSV)");
  const au = parse(fs.readFileSync(audit.file, "utf8")) as string[][];
  expect(au[0]).toEqual(["at", "actor_type", "actor", "event", "entity_type", "entity_id", "action", "reason", "details"]);
  expect(au.length - 1).toBe(await db.auditLog.count({ where: { eventId: ev.eventId } }));

  // Signed out, the same downloads are refused.
  const anonymous = await request.newContext({ baseURL: new URL(page.url()).origin });
  expect((await anonymous.get(`/api/events/${ev.slug}/export/labels`)).status()).toBe(401);
  expect((await anonymous.get(`/api/events/${ev.slug}/export/humaid`)).status()).toBe(401);
  await anonymous.dispose();
});
