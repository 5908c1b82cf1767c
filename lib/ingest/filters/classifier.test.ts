import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { filterByClassifier, type TweetClassifier } from "./classifier";

describe("classifier step", () => {
  const rows: IngestRow[] = ["help needed at the shelter", "great game last night", "roads closed by flooding"].map((text, i) => ({ line: i + 2, externalId: String(i), text }));
  // A tiny fake: anything about sports is not humanitarian.
  const fake: TweetClassifier = { predict: (texts) => texts.map((t) => (/game/.test(t) ? "not_humanitarian" : "other_relevant_information")) };

  it("records predictions and removes the chosen classes", async () => {
    const r = await filterByClassifier(rows, { classifier: fake, dropLabels: ["not_humanitarian"] });
    expect(r.rows.map((x) => x.externalId)).toEqual(["0", "2"]);
    expect(rows.map((x) => x.predictedLabel)).toEqual(["other_relevant_information", "not_humanitarian", "other_relevant_information"]);
    expect(r.step).toMatchObject({ removed: 1, reasons: { "predicted not_humanitarian": 1 }, details: { "predicted other_relevant_information": 2, "predicted not_humanitarian": 1 } });
  });

  it("is skipped when off or when no classifier is available, and rejects a broken one", async () => {
    expect((await filterByClassifier(rows, { classifier: fake, dropLabels: [], enabled: false })).step.enabled).toBe(false);
    expect((await filterByClassifier(rows, { classifier: null, dropLabels: [] })).step.note).toBe("no classifier available");
    await expect(filterByClassifier(rows, { classifier: { predict: async () => ["x"] }, dropLabels: [] })).rejects.toThrow(/1 predictions for 3 tweets/);
  });
});
