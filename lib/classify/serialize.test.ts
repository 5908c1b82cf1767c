import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { deserializeClassifier, MODEL_FORMAT_VERSION, serializeClassifier } from "./serialize";
import { syntheticTweets } from "./synthetic.fixture";
import { trainClassifier } from "./train";

describe("model file format", () => {
  const data = syntheticTweets(300, 10);
  const dev = syntheticTweets(60, 11);
  const model = trainClassifier({ ...data, dev, options: { search: { c: [0.3], classWeight: ["balanced"] } } });
  const bytes = serializeClassifier(model);

  it("starts with a signature and the format version", () => {
    expect(bytes.toString("ascii", 0, 4)).toBe("ACCM");
    expect(bytes.readUInt32LE(4)).toBe(MODEL_FORMAT_VERSION);
  });

  it("round-trips: same labels, scores, probabilities and training record", () => {
    const loaded = deserializeClassifier(bytes);
    const texts = syntheticTweets(80, 12).texts;
    expect(loaded.labels).toEqual(model.labels);
    expect(loaded.predict(texts)).toEqual(model.predict(texts));
    expect(loaded.scores(texts).map((s) => Array.from(s))).toEqual(model.scores(texts).map((s) => Array.from(s)));
    expect(loaded.predictProba(texts)).toEqual(model.predictProba(texts));
    expect(loaded.linear.probabilityScale).toBe(model.linear.probabilityScale);
    expect(loaded.info).toEqual(model.info);
    expect(loaded.features.fitted.options).toEqual(model.features.fitted.options);
    // a loaded model saves to the same bytes
    expect(serializeClassifier(loaded).equals(bytes)).toBe(true);
  });

  it("is compact: int16 weights, compressed", () => {
    const raw = model.features.size * (4 + 4 + 4 * model.linear.outputs);
    expect(bytes.length).toBeLessThan(raw / 2);
  });

  it("rejects other files, other versions and damaged data with user errors", () => {
    expect(() => deserializeClassifier(Buffer.from("hello world"))).toThrow(/wrong file signature/);
    const future = Buffer.from(bytes);
    future.writeUInt32LE(MODEL_FORMAT_VERSION + 1, 4);
    expect(() => deserializeClassifier(future)).toThrow(/format version 2.*Retrain/);
    const damaged = Buffer.concat([bytes.subarray(0, 8), Buffer.from("not zlib at all")]);
    expect(() => deserializeClassifier(damaged)).toThrow(UserError);
    // a valid stream whose sections are cut short
    const payload = zlib.inflateSync(bytes.subarray(8));
    const truncated = Buffer.concat([bytes.subarray(0, 8), zlib.deflateSync(payload.subarray(0, payload.length - 100))]);
    expect(() => deserializeClassifier(truncated)).toThrow(/truncated/);
  });
});
