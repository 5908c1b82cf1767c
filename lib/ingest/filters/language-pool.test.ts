import { describe, expect, it } from "vitest";
import { DEMO_EVENTS } from "@/lib/demo/generate";
import { syntheticTweetStream } from "../testing/synthetic-tweets";
import type { IngestRow } from "../rows";
import { filterByLanguage, loadLanguageDetector } from "./language";
import { startLanguageDetection } from "./language-pool";

const rowsOf = (texts: string[]): IngestRow[] => texts.map((text, i) => ({ line: i + 2, externalId: String(i), text }));

describe("background language detection", () => {
  it("gives eld's in-process answers, in worker threads and without them", async () => {
    // Tweets of three events, some in Spanish, Portuguese, Italian, French and Tagalog.
    const texts = DEMO_EVENTS.flatMap((event, k) => syntheticTweetStream({ count: 1_000, seed: 30 + k, event, copies: 0.1, foreign: 0.08 })).map((t) => t.text);
    // Retweet-style copies, a text with no letters and one in Spanish.
    texts.push(texts[0], `RT @someone: ${texts[1]}`, "🙏🙏 http://t.co/x @a", "Las inundaciones cerraron varias carreteras cerca del río, quédense en casa");
    const local = await loadLanguageDetector();
    const expected = filterByLanguage(rowsOf(texts), { languages: ["en"], undetermined: "keep", detect: local });
    expect(expected.step.removed).toBeGreaterThan(0);

    for (const threads of [1, 2, 0]) {
      const detection = startLanguageDetection({ threads });
      const rows = rowsOf(texts);
      // As the import job does: rows are added while the file is read, the last ones at the language step.
      detection.add(rows.slice(0, 1_000));
      detection.add(rows.slice(1_000, 2_500));
      const detect = await detection.finish(rows);
      const got = filterByLanguage(rows, { languages: ["en"], undetermined: "keep", detect });
      expect(got.rows.map((r) => [r.externalId, r.lang])).toEqual(expected.rows.map((r) => [r.externalId, r.lang]));
      expect(got.step).toEqual(expected.step);
      const stats = detection.stats();
      expect(stats.workers).toBe(threads);
      expect(threads === 0 ? stats.inWorkers : stats.inProcess).toBe(0);
      expect(stats.inWorkers + stats.inProcess).toBeGreaterThan(2_500); // each distinct text once
      await detection.close();
    }
  });

  it("keeps the languages rows already have and stops its workers when closed early", async () => {
    const detection = startLanguageDetection({ threads: 1 });
    detection.add(rowsOf(["Flooding has closed several roads near the river, please stay home tonight"]));
    await detection.close();
    await detection.close();
    const own: IngestRow = { line: 2, externalId: "1", text: "Hola a todos", lang: "en" };
    const detect = await startLanguageDetection({ threads: 1 }).finish([own]);
    const r = filterByLanguage([own], { languages: ["en"], undetermined: "keep", detect });
    expect(r.rows).toEqual([own]);
  });
});
