import zlib from "node:zlib";
import { z } from "zod";
import { UserError } from "@/lib/errors";
import { FeatureSpace, type FeatureOptions } from "./features";
import { type LinearWeights, TextClassifier, type TrainingInfo } from "./model";

/**
 * The model file (and the `model` bytes of the ClassifierModel row): "ACCM", a little-endian uint32
 * format version, then a zlib stream holding a JSON header and the typed-array sections it lists
 * (kept hash buckets, idf, int16 weights with one scale per output, biases). Weights are quantised
 * when the model is trained (quantiseWeights), so a loaded model predicts exactly like the trained one.
 */
export const MODEL_FORMAT_VERSION = 1;
const MAGIC = "ACCM";

const sectionSchema = z.object({ name: z.string(), type: z.enum(["u32", "f32", "i16"]), length: z.number().int().min(0) });

const headerSchema = z.object({
  kind: z.literal("tfidf-linear"),
  features: z.object({
    preprocess: z.object({ stopWords: z.boolean(), asciiOnly: z.boolean() }),
    wordNgrams: z.tuple([z.number().int(), z.number().int()]),
    charNgrams: z.tuple([z.number().int(), z.number().int()]).nullable(),
    charSource: z.enum(["clean", "light"]),
    hashBits: z.number().int().min(8).max(26),
    minDf: z.number().int().min(1),
    charWeight: z.number(),
  }),
  linear: z.object({
    loss: z.enum(["svm", "logistic"]),
    labels: z.array(z.string()).min(2),
    outputs: z.number().int().min(1),
    probabilityScale: z.number(),
    weightScales: z.array(z.number()),
  }),
  info: z.record(z.string(), z.unknown()),
  sections: z.array(sectionSchema),
});

type Header = z.infer<typeof headerSchema>;

const INT16_MAX = 32767;

/** Per-output scales of the int16 weights. */
function weightScales(w: LinearWeights): number[] {
  const scales = new Array<number>(w.outputs).fill(0);
  for (let j = 0; j < w.weights.length; j++) {
    const k = j % w.outputs;
    scales[k] = Math.max(scales[k], Math.abs(w.weights[j]));
  }
  return scales.map((m) => (m > 0 ? m / INT16_MAX : 1));
}

function quantise(w: LinearWeights, scales: number[]): Int16Array {
  return Int16Array.from(w.weights, (v, j) => Math.round(v / scales[j % w.outputs]));
}

function dequantise(q: Int16Array, scales: number[], outputs: number): Float32Array {
  return Float32Array.from(q, (v, j) => v * scales[j % outputs]);
}

/** Rounds the weights to what the model file stores (called once after training). */
export function quantiseWeights(w: LinearWeights): LinearWeights {
  const scales = weightScales(w);
  return { ...w, weights: dequantise(quantise(w, scales), scales, w.outputs) };
}

function bytesOf(a: Uint32Array | Float32Array | Int16Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

export function serializeClassifier(model: TextClassifier): Buffer {
  const { fitted } = model.features;
  const lin = model.linear;
  const scales = weightScales(lin);
  const sections: Array<{ name: string; type: "u32" | "f32" | "i16"; data: Uint32Array | Float32Array | Int16Array }> = [
    { name: "buckets", type: "u32", data: fitted.buckets },
    { name: "idf", type: "f32", data: fitted.idf },
    { name: "biases", type: "f32", data: lin.biases },
    { name: "weights", type: "i16", data: quantise(lin, scales) },
  ];
  const header: Header = {
    kind: "tfidf-linear",
    features: fitted.options,
    linear: {
      loss: lin.loss,
      labels: lin.labels,
      outputs: lin.outputs,
      probabilityScale: lin.probabilityScale,
      weightScales: scales,
    },
    info: model.info as unknown as Record<string, unknown>,
    sections: sections.map((s) => ({ name: s.name, type: s.type, length: s.data.length })),
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const lengthBytes = Buffer.alloc(4);
  lengthBytes.writeUInt32LE(json.length);
  // Sections start 4-byte aligned so they can be viewed in place after inflating.
  const pad = Buffer.alloc((4 - ((4 + json.length) % 4)) % 4);
  const payload = Buffer.concat([lengthBytes, json, pad, ...sections.map((s) => bytesOf(s.data))]);
  const prefix = Buffer.alloc(8);
  prefix.write(MAGIC, 0, "ascii");
  prefix.writeUInt32LE(MODEL_FORMAT_VERSION, 4);
  return Buffer.concat([prefix, zlib.deflateSync(payload, { level: 6 })]);
}

function invalid(message: string): never {
  throw new UserError(`not a valid Accord classifier model: ${message}`, "invalid_model");
}

export function deserializeClassifier(bytes: Uint8Array): TextClassifier {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || buf.toString("ascii", 0, 4) !== MAGIC) invalid("wrong file signature");
  const version = buf.readUInt32LE(4);
  if (version !== MODEL_FORMAT_VERSION) {
    throw new UserError(
      `this model file has format version ${version}; this Accord reads version ${MODEL_FORMAT_VERSION}. Retrain the model.`,
      "invalid_model",
    );
  }
  let payload: Buffer;
  try {
    payload = zlib.inflateSync(buf.subarray(8));
  } catch {
    invalid("the compressed data is damaged");
  }
  const jsonLength = payload.readUInt32LE(0);
  let header: Header;
  try {
    header = headerSchema.parse(JSON.parse(payload.toString("utf8", 4, 4 + jsonLength)));
  } catch (err) {
    invalid(`bad header (${err instanceof Error ? err.message.slice(0, 200) : String(err)})`);
  }
  // Copy into a fresh, aligned buffer and view the sections in place (the 2-byte section comes last).
  let offset = 4 + jsonLength;
  offset += (4 - (offset % 4)) % 4;
  const data = new Uint8Array(payload.subarray(offset)).buffer;
  const width = { u32: 4, f32: 4, i16: 2 } as const;
  const placed = new Map<string, { type: string; start: number; length: number }>();
  let pos = 0;
  for (const s of header.sections) {
    placed.set(s.name, { type: s.type, start: pos, length: s.length });
    pos += s.length * width[s.type];
  }
  if (pos > data.byteLength) invalid("the data is truncated");
  const section = (name: string, type: keyof typeof width) => {
    const s = placed.get(name);
    if (!s || s.type !== type) invalid(`missing section ${name}`);
    return s;
  };
  const u32 = (name: string) => ((s) => new Uint32Array(data, s.start, s.length))(section(name, "u32"));
  const f32 = (name: string) => ((s) => new Float32Array(data, s.start, s.length))(section(name, "f32"));
  const buckets = u32("buckets");
  const idf = f32("idf");
  const biases = f32("biases");
  const w = section("weights", "i16");
  const q = new Int16Array(data, w.start, w.length);
  const { linear, features } = header;
  if (buckets.length !== idf.length || q.length !== buckets.length * linear.outputs || biases.length !== linear.outputs) {
    invalid("section sizes do not match");
  }
  const space = new FeatureSpace({ options: features as FeatureOptions, buckets, idf });
  const weights: LinearWeights = {
    loss: linear.loss,
    labels: linear.labels,
    outputs: linear.outputs,
    weights: dequantise(q, linear.weightScales, linear.outputs),
    biases,
    probabilityScale: linear.probabilityScale,
  };
  return new TextClassifier(space, weights, header.info as unknown as TrainingInfo);
}
