import { describe, expect, it } from "vitest";
import { type FeatureOptions, FeatureSpace, fitFeatures, type SparseRows } from "./features";

const WORDS_ONLY: FeatureOptions = {
  preprocess: { stopWords: false, asciiOnly: true },
  wordNgrams: [1, 1],
  charNgrams: null,
  charSource: "light",
  hashBits: 20,
  minDf: 1,
  charWeight: 1,
};

function row(x: SparseRows, i: number): number[] {
  return Array.from(x.values.subarray(x.indptr[i], x.indptr[i + 1]));
}

const norm = (v: number[]) => Math.sqrt(v.reduce((a, b) => a + b * b, 0));

describe("hashed tf-idf features", () => {
  it("computes smoothed idf and sublinear tf, L2-normalised", () => {
    const texts = ["alpha beta", "alpha gamma"];
    const fitted = fitFeatures(texts, WORDS_ONLY);
    expect(fitted.buckets).toHaveLength(3);
    // alpha (df 2) first: columns go by falling document frequency
    expect(fitted.idf[0]).toBeCloseTo(1, 6);
    expect(fitted.idf[1]).toBeCloseTo(Math.log(3 / 2) + 1, 6);
    const x = new FeatureSpace(fitted).transform(["alpha alpha beta"]);
    const tfAlpha = 1 + Math.log(2);
    const tfBeta = Math.log(3 / 2) + 1;
    const expected = [tfAlpha, tfBeta].map((v) => v / Math.hypot(tfAlpha, tfBeta));
    expect(row(x, 0).sort()).toEqual(expected.sort().map((v) => expect.closeTo(v, 6)));
  });

  it("counts word uni-, bi- and trigrams", () => {
    const fitted = fitFeatures(["red green blue"], { ...WORDS_ONLY, wordNgrams: [1, 3] });
    expect(fitted.buckets).toHaveLength(3 + 2 + 1);
    const bigramsOnly = fitFeatures(["red green blue"], { ...WORDS_ONLY, wordNgrams: [2, 2] });
    expect(bigramsOnly.buckets).toHaveLength(2);
  });

  it("prunes n-grams below minDf and ignores unseen ones", () => {
    const fitted = fitFeatures(["flood water", "flood rescue", "fire"], { ...WORDS_ONLY, minDf: 2 });
    expect(fitted.buckets).toHaveLength(1);
    const x = new FeatureSpace(fitted).transform(["flood", "earthquake", ""]);
    expect(row(x, 0)).toEqual([1]);
    expect(row(x, 1)).toEqual([]);
    expect(row(x, 2)).toEqual([]);
  });

  it("normalises the word and character blocks separately and scales the character block", () => {
    const options: FeatureOptions = { ...WORDS_ONLY, charNgrams: [2, 4], charWeight: 0.5 };
    const texts = ["bridge closed", "road closed by flood", "flood bridge"];
    const { space, x } = FeatureSpace.fitTransform(texts, options);
    for (let i = 0; i < texts.length; i++) expect(norm(row(x, i))).toBeCloseTo(Math.sqrt(1 + 0.25), 5);
    // fitTransform hashes once; transform of the same texts gives the same rows
    const again = space.transform(texts);
    expect(Array.from(again.indices)).toEqual(Array.from(x.indices));
    expect(Array.from(again.values)).toEqual(Array.from(x.values));
  });

  it("builds word-boundary character n-grams from padded words", () => {
    // " ab " → 2-grams " a", "ab", "b " and 3-grams " ab", "ab "; the same set for a second word "ab"
    const fitted = fitFeatures(["ab ab"], { ...WORDS_ONLY, wordNgrams: [1, 1], charNgrams: [2, 3], minDf: 1 });
    expect(fitted.buckets).toHaveLength(1 + 5);
  });

  it("is deterministic", () => {
    const texts = ["Shelter at the school gym", "Roads closed near the river #flood"];
    const options: FeatureOptions = { ...WORDS_ONLY, wordNgrams: [1, 3], charNgrams: [2, 5] };
    const a = fitFeatures(texts, options);
    const b = fitFeatures(texts, options);
    expect(Array.from(a.buckets)).toEqual(Array.from(b.buckets));
    expect(Array.from(a.idf)).toEqual(Array.from(b.idf));
  });
});
