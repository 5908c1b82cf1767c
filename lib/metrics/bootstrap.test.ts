import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/util/random";
import { encodeJudgments, firstJudgments, labelCounts, type Judgment } from "./judgments";
import { generateCrowdJudgments } from "./synthetic";
import { bootstrapTable3, bootstrapTable3Pausing, RESAMPLES_PER_PAUSE, resampleWeights, weightedTable3 } from "./bootstrap";
import { table3Figures } from "./table3";

const partsOf = (d: ReturnType<typeof encodeJudgments>) => {
  const c = labelCounts(d);
  return { nLabels: c.nLabels, raters: c.raters, counts: c.counts };
};

describe("bootstrap intervals of Table 3", () => {
  const crowd = generateCrowdJudgments({ items: 300, labels: ["a", "b", "c", "d"], workers: 20, seed: 5 });
  // some tweets with a 4th and 5th judgment, some with only two
  const data = encodeJudgments(crowd.judgments);

  it("a resample's weighted measures equal the measures over the duplicated tweets", () => {
    const rng = createRng(11);
    const f = firstJudgments(data, 3);
    const code = new Map(data.items.map((id, i) => [id, i]));
    const firstOf = Int32Array.from(f.items, (id) => code.get(id) as number);
    for (let b = 0; b < 5; b++) {
      const w = resampleWeights(data.items.length, rng);
      const rows: Judgment[] = [];
      for (let i = 0; i < data.items.length; i++) {
        for (let copy = 0; copy < w[i]; copy++) {
          for (let j = data.itemStart[i]; j < data.itemStart[i + 1]; j++) {
            rows.push({ item: `${data.items[i]}#${copy}`, annotator: data.annotators[data.annotator[j]], label: data.labels[data.label[j]] });
          }
        }
      }
      const expected = table3Figures(encodeJudgments(rows));
      const got = weightedTable3(partsOf(data), partsOf(f), firstOf, w);
      expect(got[0]).toBeCloseTo(expected.fleissKappa, 10);
      expect(got[1]).toBeCloseTo(expected.averageObservedAgreement, 10);
      expect(got[2]).toBeCloseTo(expected.krippendorffAlpha, 10);
      expect(got[3]).toBeCloseTo(expected.averageMajorityAgreement, 10);
    }
  });

  it("1,000 seeded resamples: the same seed gives the same interval, which holds the estimate", () => {
    const ci = bootstrapTable3(data);
    expect(bootstrapTable3(data)).toEqual(ci);
    const point = table3Figures(data);
    for (const k of ["fleissKappa", "averageObservedAgreement", "krippendorffAlpha", "averageMajorityAgreement"] as const) {
      const [lo, hi] = ci[k] as [number, number];
      expect(lo).toBeLessThan(point[k]);
      expect(hi).toBeGreaterThan(point[k]);
      expect(hi - lo).toBeLessThan(0.2);
    }
    expect(bootstrapTable3(data, { seed: "other" })).not.toEqual(ci);
  });

  it("the pausing bootstrap gives the same intervals, pausing after every RESAMPLES_PER_PAUSE resamples", async () => {
    let pauses = 0;
    const ci = await bootstrapTable3Pausing(data, async () => void pauses++, { resamples: 200 });
    expect(ci).toEqual(bootstrapTable3(data, { resamples: 200 }));
    expect(pauses).toBe(200 / RESAMPLES_PER_PAUSE);
  });
});
