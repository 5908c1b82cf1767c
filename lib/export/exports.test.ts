import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { DEMO_EVENTS } from "@/lib/demo/generate";
import { compareEvents } from "@/lib/analysis/compare";
import { readEventSettings } from "@/lib/events/event-settings";
import { procedureFormSchema, procedureFormValues } from "@/lib/events/procedure-form.validation";
import { settingsBasis, updateProcedureSettings } from "@/lib/events/update-procedure-settings";
import { bruteForceNearDuplicates } from "@/lib/ingest/dedupe/brute-force";
import { AGREED_LABELS_HEADER, agreedLabelsCsv, votesText } from "./agreed-labels";
import { auditCsv } from "./audit";
import { compareCsv } from "./compare";
import { collectText, csvRows, neutraliseCell } from "./csv";
import { csvBundleZip } from "./csv-bundle";
import { buildHumaidExport, countsBySplit, humaidZip, mergeSplits, type SplitSet } from "./humaid";
import { JUDGMENTS_HEADER, judgmentsCsv } from "./judgments";

describe("CSV cells", () => {
  it("neutralises formula starts and quotes what needs quoting", () => {
    expect(neutraliseCell("=HYPERLINK(\"http://x\")")).toBe("'=HYPERLINK(\"http://x\")");
    expect(neutraliseCell("+1 555")).toBe("'+1 555");
    expect(neutraliseCell("-5 dead")).toBe("'-5 dead");
    expect(neutraliseCell("@user hi")).toBe("'@user hi");
    expect(neutraliseCell("\tx")).toBe("'\tx");
    expect(neutraliseCell("safe = text")).toBe("safe = text");
    const text = csvRows([["a,b", 'say "hi"', "line\nbreak", -3, null, true]]);
    expect(parse(text)).toEqual([["a,b", 'say "hi"', "line\nbreak", "-3", "", "true"]]);
    expect(votesText({ b: 1, a: 2, c: 1, z: 0 })).toBe("a:2;b:1;c:1");
  });

  it("merging splits removes near-duplicates across splits only, keeping the test set whole", () => {
    const set = (name: string, rows: Partial<Record<"train" | "dev" | "test", Array<[string, string]>>>): SplitSet => ({
      name,
      dropped: {},
      removed: { train: 0, dev: 0, test: 0 },
      rows: {
        train: (rows.train ?? []).map(([id, text]) => ({ id, text, label: "x" })),
        dev: (rows.dev ?? []).map(([id, text]) => ({ id, text, label: "x" })),
        test: (rows.test ?? []).map(([id, text]) => ({ id, text, label: "x" })),
      },
    });
    const a = set("a", { train: [["1", "bridge collapsed on highway one near the river town"]], test: [["2", "shelter needs blankets and water for families tonight"]] });
    const b = set("b", {
      train: [
        ["3", "Shelter needs blankets and water for families tonight!! https://t.co/abc"],
        ["4", "completely different words about something else entirely here"],
      ],
      test: [["5", "bridge collapsed on highway one near the river town today"]],
      dev: [["6", "completely different words about something else entirely here"]],
    });
    const merged = mergeSplits("all", [a, b]);
    expect(merged.rows.test.map((r) => r.id)).toEqual(["2", "5"]);
    expect(merged.rows.dev.map((r) => r.id)).toEqual(["6"]);
    // 1 (train) ~ 5 (test), 3 (train) ~ 2 (test), 4 (train) = 6 (dev): all removed from train.
    expect(merged.rows.train.map((r) => r.id)).toEqual([]);
    expect(merged.removed).toEqual({ train: 3, dev: 0, test: 0 });
    // No pair across different splits remains above the threshold (checked by brute force).
    const rows = [...merged.rows.test.map((r) => ({ ...r, s: "test" })), ...merged.rows.dev.map((r) => ({ ...r, s: "dev" })), ...merged.rows.train.map((r) => ({ ...r, s: "train" }))];
    const pairs = bruteForceNearDuplicates(rows.map((r) => r.text), { mode: "all" }).pairs;
    for (let p = 0; p < (pairs?.count ?? 0); p++) expect(rows[pairs!.a[p]].s).toBe(rows[pairs!.b[p]].s);
  });
});

describe.each(testFlavors())("exports on %s", (flavor) => {
  let t: TestDb;
  let quake: EventFixture;
  let flood: EventFixture;
  beforeAll(async () => {
    t = await createTestDb(flavor);
    quake = await seedEventFixture(t.db, {
      slug: "quake_x",
      tweets: 420,
      gold: 30,
      campaign: { hits: 20, seed: 5 },
      // One tweet tries a spreadsheet formula, one carries markup; both must come out inert.
      textOf: (i, text) => (i === 0 ? `=HYPERLINK("http://evil.example","click") ${text}` : i === 1 ? `<script>alert(1)</script> ${text}` : text),
    });
    flood = await seedEventFixture(t.db, { slug: "flood_y", type: "flood", spec: DEMO_EVENTS[1], tweets: 200, gold: 20, idBase: 1_700_000_000_000_000_000n, campaign: { hits: 9, seed: 6 } });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("agreed labels CSV: exact header, one row per accepted tweet, votes and agreement, unresolved only when asked", async () => {
    const text = await collectText(agreedLabelsCsv(t.db, { eventId: quake.eventId }));
    const [header, ...rows] = parse(text) as string[][];
    expect(header).toEqual([...AGREED_LABELS_HEADER]);
    expect(text.split("\n")[0]).toBe("tweet_id,tweet_text,class_label,event,agreement,judgments,votes");
    expect(rows.length).toBe(quake.campaign!.acceptedTweets);
    const accepted = await t.db.acceptedLabel.findMany({ where: { eventId: quake.eventId }, include: { tweet: { select: { externalId: true, text: true } } } });
    const byId = new Map(accepted.map((a) => [a.tweet.externalId, a]));
    for (const [id, tweetText, label, event, agreement, judgments, votes] of rows) {
      const a = byId.get(id)!;
      expect(label).toBe(a.label);
      expect(event).toBe("quake_x");
      expect(Number(agreement)).toBeCloseTo(a.topVotes / a.totalVotes, 4);
      expect(Number(judgments)).toBe(a.totalVotes);
      const parsedVotes = Object.fromEntries(votes.split(";").map((v) => v.split(":")).map(([l, n]) => [l, Number(n)]));
      expect(parsedVotes).toEqual(a.votes);
      expect(votes.split(";")[0]).toBe(`${a.label}:${a.topVotes}`);
      expect(tweetText.replace(/^'/, "")).toBe(a.tweet.text);
      expect(/^[=+\-@]/.test(tweetText)).toBe(false);
    }
    const goldIds = new Set((await t.db.tweet.findMany({ where: { role: "gold" }, select: { externalId: true } })).map((g) => g.externalId));
    expect(rows.some((r) => goldIds.has(r[0]))).toBe(false);
    const all = parse(await collectText(agreedLabelsCsv(t.db, { eventId: quake.eventId, includeUnresolved: true }))) as string[][];
    const unresolved = all.slice(1).filter((r) => r[2] === "");
    expect(unresolved.length).toBe(quake.campaign!.unresolvedTweets);
    // The judgments column of an unresolved tweet counts its approved judgments (none when every assignment was rejected).
    const externalIds = unresolved.map((r) => r[0]);
    const tweets = await t.db.tweet.findMany({ where: { eventId: quake.eventId, externalId: { in: externalIds } }, select: { id: true, externalId: true } });
    const counted = await t.db.judgment.groupBy({ by: ["tweetId"], where: { tweetId: { in: tweets.map((tw) => tw.id) }, counted: true, isGold: false }, _count: { _all: true } });
    const countOf = new Map(tweets.map((tw) => [tw.externalId, counted.find((c) => c.tweetId === tw.id)?._count._all ?? 0]));
    expect(unresolved.map((r) => Number(r[5]))).toEqual(unresolved.map((r) => countOf.get(r[0])));
    expect(unresolved.some((r) => Number(r[5]) > 0)).toBe(true);
  });

  it("HumAID zip: per event splits 70/10/20 by label without rare labels, merged sets without cross-split near-duplicates, README with Table 6", async () => {
    const exp = await buildHumaidExport(t.db, { eventIds: [quake.eventId, flood.eventId], seed: "test" });
    const zip = unzipSync(humaidZip(exp, { generatedAt: new Date("2025-01-01T00:00:00Z") }));
    const names = Object.keys(zip).sort();
    expect(names).toContain("README.md");
    for (const s of ["train", "dev", "test"]) {
      expect(names).toContain(`events/quake_x/quake_x_${s}.tsv`);
      expect(names).toContain(`events/flood_y/flood_y_${s}.tsv`);
      expect(names).toContain(`event_types/earthquake/earthquake_${s}.tsv`);
      expect(names).toContain(`all_combined/all_combined_${s}.tsv`);
    }
    const read = (name: string) => strFromU8(zip[name]).trimEnd().split("\n").map((l) => l.split("\t"));
    const quakeSplits = Object.fromEntries(["train", "dev", "test"].map((s) => [s, read(`events/quake_x/quake_x_${s}.tsv`)]));
    for (const s of ["train", "dev", "test"]) {
      expect(quakeSplits[s][0]).toEqual(["tweet_id", "tweet_text", "class_label"]);
      for (const row of quakeSplits[s].slice(1)) expect(row.length).toBe(3);
    }
    const accepted = await t.db.acceptedLabel.groupBy({ by: ["label"], where: { eventId: quake.eventId }, _count: { _all: true } });
    const kept = accepted.filter((a) => a._count._all >= 15 && a.label !== "dont_know_cant_judge");
    const exported = ["train", "dev", "test"].reduce((s, k) => s + quakeSplits[k].length - 1, 0);
    expect(exported).toBe(kept.reduce((s, a) => s + a._count._all, 0));
    const counts = countsBySplit(exp.events.find((e) => e.name === "quake_x")!);
    for (const a of kept) {
      const c = counts[a.label];
      expect(c.test).toBe(Math.round(a._count._all * 0.2));
      expect(c.dev).toBe(Math.round(a._count._all * 0.1));
    }
    for (const a of accepted.filter((x) => x._count._all < 15 && x.label !== "dont_know_cant_judge")) expect(exp.events[1].dropped[a.label] ?? exp.events[0].dropped[a.label]).toBe(a._count._all);
    // The README's Table 6 lines match the files.
    const readme = strFromU8(zip["README.md"]);
    for (const a of kept) {
      const c = counts[a.label];
      expect(readme).toContain(`| ${a.label} | ${c.train} | ${c.dev} | ${c.test} | ${c.train + c.dev + c.test} |`);
    }
    // The combined set: the union of the event splits minus cross-split near-duplicates.
    const combined = ["train", "dev", "test"].map((s) => read(`all_combined/all_combined_${s}.tsv`).slice(1));
    const eventRows = exp.events.reduce((s, e) => s + e.rows.train.length + e.rows.dev.length + e.rows.test.length, 0);
    const removed = exp.combined!.removed;
    expect(combined.reduce((s, r) => s + r.length, 0)).toBe(eventRows - removed.train - removed.dev - removed.test);
    expect(removed.test).toBe(0);
    const flat = combined.flatMap((rows, s) => rows.map((r) => ({ text: r[1], s })));
    const pairs = bruteForceNearDuplicates(flat.map((r) => r.text), { mode: "all" }).pairs;
    for (let p = 0; p < (pairs?.count ?? 0); p++) expect(flat[pairs!.a[p]].s).toBe(flat[pairs!.b[p]].s);
    // Same data and seed: the same files.
    const again = await buildHumaidExport(t.db, { eventIds: [quake.eventId, flood.eventId], seed: "test" });
    expect(again.events[0].rows).toEqual(exp.events[0].rows);
  });

  it("judgments and audit CSVs: one row per worker and tweet, one per audit entry", async () => {
    const text = await collectText(judgmentsCsv(t.db, { eventId: flood.eventId }));
    const [header, ...rows] = parse(text) as string[][];
    expect(header).toEqual([...JUDGMENTS_HEADER]);
    expect(rows.length).toBe(flood.campaign!.judgments);
    expect(new Set(rows.map((r) => `${r[0]}|${r[1]}|${r[8]}`)).size).toBe(rows.length);
    const gold = rows.filter((r) => r[4] === "true");
    expect(gold.length).toBe(rows.length / 3);
    for (const g of gold) expect(g[6]).toBe(String(g[2] === g[5]));
    // Paged by the judgments' key (assignment, tweet): small pages give the same rows, each once.
    expect(await collectText(judgmentsCsv(t.db, { eventId: flood.eventId, pageSize: 7 }))).toBe(text);
    // Zipped with the procedure manifest: the same CSV bytes beside manifest.json.
    const bundle = unzipSync(await csvBundleZip(t.db, { csvName: "flood_judgments.csv", chunks: judgmentsCsv(t.db, { eventId: flood.eventId }), eventIds: [flood.eventId] }));
    expect(Object.keys(bundle).sort()).toEqual(["flood_judgments.csv", "manifest.json"]);
    expect(strFromU8(bundle["flood_judgments.csv"])).toBe(text);
    expect(JSON.parse(strFromU8(bundle["manifest.json"])).events.map((e: { slug: string }) => e.slug)).toEqual([flood.slug]);
    const audit = parse(await collectText(auditCsv(t.db, { eventId: flood.eventId }))) as string[][];
    expect(audit[0]).toEqual(["at", "actor_type", "actor", "event", "entity_type", "entity_id", "action", "reason", "details"]);
    expect(audit.length - 1).toBe(await t.db.auditLog.count({ where: { eventId: flood.eventId } }));
    const decision = audit.find((r) => r[6] === "approve")!;
    expect(JSON.parse(decision[8])).toMatchObject({ correct: expect.any(Number), total: 10 });
  });

  it("HumAID zip: dont_know_cant_judge is left out by default, kept by the release setting; the README states the event's rules", async () => {
    const moved = await t.db.acceptedLabel.findMany({ where: { eventId: quake.eventId }, select: { id: true, label: true }, orderBy: { tweetId: "asc" }, take: 20 });
    await t.db.acceptedLabel.updateMany({ where: { id: { in: moved.map((m) => m.id) } }, data: { label: "dont_know_cant_judge" } });
    const original = await t.db.event.findUniqueOrThrow({ where: { id: quake.eventId }, select: { settings: true } });
    const editor = await t.db.user.create({ data: { email: "editor@example.org", name: "Editor", passwordHash: "x", role: "researcher" } });
    const current = readEventSettings({ name: "quake_x", settings: original.settings });
    await updateProcedureSettings(
      t.db,
      { ...procedureFormSchema.parse({ ...procedureFormValues(current), tweetAcceptance: "3/4" }), eventId: quake.eventId, basis: settingsBasis(original.settings), reason: "pilot" },
      { actor: { id: editor.id, email: editor.email } },
    );
    const dontKnow = await t.db.acceptedLabel.count({ where: { eventId: quake.eventId, label: "dont_know_cant_judge" } });
    expect(dontKnow).toBeGreaterThanOrEqual(20);
    try {
      const exp = await buildHumaidExport(t.db, { eventIds: [quake.eventId], seed: "test", merged: false });
      const e = exp.events[0];
      expect(e.excluded).toEqual({ dont_know_cant_judge: dontKnow });
      expect(countsBySplit(e).dont_know_cant_judge).toBeUndefined();
      const readme = strFromU8(unzipSync(humaidZip(exp))["README.md"]);
      expect(readme).toContain(`Labels left out by the release policy: dont_know_cant_judge (${dontKnow}).`);
      expect(readme).toContain("An assignment is approved when at least 7 of its 10 gold tweets are right");
      expect(readme).toContain("## Table 2");
      // The procedure manifest: settings, hashes, seeds, version and the audited setting changes.
      const manifest = JSON.parse(strFromU8(unzipSync(humaidZip(exp))["manifest.json"]));
      expect(manifest.accordVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(manifest.exportSeed).toBe("test");
      const m = manifest.events[0];
      expect(m.slug).toBe("quake_x");
      expect(m.settings.assignmentApproval).toEqual({ num: 7, den: 10 });
      expect(m.goldSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.goldTweets).toBe(await t.db.tweet.count({ where: { eventId: quake.eventId, role: "gold" } }));
      expect(m.hitSeeds.length).toBeGreaterThan(0);
      expect(m.settingChanges.at(-1)).toMatchObject({ by: "editor@example.org", scope: "procedure", key: "tweetAcceptance", from: { num: 2, den: 3 }, to: { num: 3, den: 4 }, reason: "pilot" });
      expect(m.settingChanges.at(-1).at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // An event whose settings keep the label and ask for 5 gold + 15 unknown, 8/10, 3/4, at least 10 tweets per label.
      await t.db.event.update({
        where: { id: quake.eventId },
        data: { settings: { goldPerHit: 5, unknownPerHit: 15, assignmentApproval: "8/10", tweetAcceptance: "3/4", release: { dropLabels: [], minTweetsPerLabel: 10 } } },
      });
      const kept = await buildHumaidExport(t.db, { eventIds: [quake.eventId], seed: "test", merged: false });
      const test = Math.round(dontKnow * 0.2);
      const dev = Math.round(dontKnow * 0.1);
      expect(countsBySplit(kept.events[0]).dont_know_cant_judge).toEqual({ test, dev, train: dontKnow - test - dev });
      const rules = strFromU8(unzipSync(humaidZip(kept))["README.md"]);
      expect(rules).toContain("Each HIT has 20 tweets: 5 gold + 15 unknown");
      expect(rules).toContain("at least 4 of its 5 gold tweets are right (≥ 8/10, 80%)");
      expect(rules).toContain("at least 3/4 (75%) of the tweet's approved judgments");
      expect(rules).toContain("fewer than 10 tweets");
      expect(rules).not.toMatch(/2\/3|7\/10|fewer than 15/);
    } finally {
      for (const m of moved) await t.db.acceptedLabel.update({ where: { id: m.id }, data: { label: m.label } });
      await t.db.event.update({ where: { id: quake.eventId }, data: { settings: original.settings ?? {} } });
    }
  });

  it("compare CSV: Table 3 and Table 2 per event", async () => {
    const data = await compareEvents(t.db);
    const rows = parse(compareCsv(data)) as string[][];
    expect(rows[0].slice(0, 11)).toEqual(["event", "name", "type", "scope", "items", "judgments", "fleiss_kappa", "krippendorff_alpha", "average_observed_agreement", "average_majority_agreement", "tweets_accepted"]);
    expect(rows[0].length).toBe(11 + 11);
    const q = rows.find((r) => r[0] === "quake_x")!;
    expect(q[3]).toBe("agreed");
    expect(Number(q[10])).toBe(quake.campaign!.acceptedTweets);
    expect(q.slice(11).reduce((s, n) => s + Number(n), 0)).toBe(quake.campaign!.acceptedTweets);
    const all = parse(compareCsv(await compareEvents(t.db, { scope: "all" }))) as string[][];
    expect(all.find((r) => r[0] === "quake_x")![3]).toBe("all");
  });
});
