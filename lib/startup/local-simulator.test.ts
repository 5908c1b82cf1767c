import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { publishLive } from "@/lib/live/bus";
import { textKey } from "@/lib/crowd/simulator/truth";
import { knownLabelsOracle } from "./local-simulator";

describe.each(testFlavors())("the local simulator's truth (%s)", (flavor) => {
  let t: TestDb;
  let stop: (() => void) | undefined;
  afterEach(async () => {
    stop?.();
    await t?.cleanup();
  });

  it("knows the demo truth and stored labels, and the tweets of an import as soon as it completes", async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    const event = await t.db.event.create({ data: { slug: "truth", name: "Truth", type: "flood", schemeId, provider: "mturk", locations: [], settings: {}, filters: {} } });
    const tweet = (externalId: string, data: { goldLabel?: string; sourceLabel?: string }) =>
      t.db.tweet.create({ data: { eventId: event.id, externalId, text: `tweet ${externalId}`, role: data.goldLabel ? "gold" : "unknown", ...data } });
    await tweet("100", { sourceLabel: "caution_and_advice" });
    await tweet("101", { goldLabel: "sympathy_and_support", sourceLabel: "not_humanitarian" });
    const truth = await knownLabelsOracle(t.db, new Map([["900", "not_humanitarian"]]));
    stop = truth.stop;
    expect([truth.oracle.label("100"), truth.oracle.label("101"), truth.oracle.label("900")]).toEqual(["caution_and_advice", "sympathy_and_support", "not_humanitarian"]);

    // Uploaded after the oracle was loaded: unknown until the import's completion is announced.
    await tweet("102", { sourceLabel: "requests_or_urgent_needs" });
    expect(truth.oracle.label("102")).toBeUndefined();
    publishLive({ eventId: event.id, kind: "import", data: { importId: "i1", status: "running" } });
    publishLive({ eventId: event.id, kind: "import", data: { importId: "i1", status: "completed" } });
    await expect.poll(() => truth.oracle.label("102")).toBe("requests_or_urgent_needs");
    // By id and by the text its page shows (no page shows a tweet's id): "900" has no tweet stored, so no text.
    expect(truth.oracle.label(textKey("tweet 102"))).toBe("requests_or_urgent_needs");
    expect(truth.oracle.size).toBe(4 + 3);
  });
});
