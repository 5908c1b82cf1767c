#!/usr/bin/env node
// The import counts between the layers of eslint/layers.mjs (app → components → lib features → lib platform), and
// every upward import with its file. `--folders` adds the counts between top-level folders.
// Usage: node scripts/layers-report.mjs [--folders]
import fs from "node:fs";
import path from "node:path";
import { EXCEPTIONS, LAYER_ORDER, LAYERS, OUTSIDE, ROOT, layerOf } from "../eslint/layers.mjs";

const SKIP = new Set(["node_modules", ".next", "generated", "dist", ".tmp", ".git", "artifacts"]);
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", ".js", "/index.ts", "/index.tsx"];
// import … from "x", export … from "x", import("x"), import "x"
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) walk(p, out);
    } else if (SOURCE.test(e.name) && !e.name.endsWith(".d.ts") && !e.name.endsWith(".d.mts")) out.push(p);
  }
  return out;
}

/** The repository path an import specifier names (alias `@/` or relative), or null for a package. */
function resolveSpecifier(file, spec) {
  let base;
  if (spec.startsWith("@/")) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(file), spec);
  else return null;
  const hit = EXTENSIONS.map((x) => base + x).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
  return path.relative(ROOT, hit ?? base).split(path.sep).join("/");
}

/** The top-level folder (or shared file) that LAYERS or OUTSIDE names for a path. */
function unitOf(rel) {
  return Object.keys({ ...OUTSIDE, ...LAYERS }).find((k) => rel === k || rel.startsWith(`${k}/`)) ?? null;
}

export function importEdges() {
  const roots = [...new Set(Object.keys({ ...OUTSIDE, ...LAYERS }).map((k) => k.split("/")[0]))];
  const files = roots.flatMap((r) => {
    const p = path.join(ROOT, r);
    if (!fs.existsSync(p)) return [];
    return fs.statSync(p).isDirectory() ? walk(p, []) : [p];
  });
  const edges = [];
  for (const file of files) {
    const from = path.relative(ROOT, file).split(path.sep).join("/");
    for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      const to = resolveSpecifier(file, m[1] ?? m[2] ?? m[3]);
      if (to && layerOf(from) && layerOf(to)) edges.push({ from, to });
    }
  }
  return edges;
}

function table(title, counts, keys) {
  const width = Math.max(...keys.map((k) => k.length), 10);
  console.log(`\n${title} (rows import columns)`);
  console.log(["".padEnd(width), ...keys.map((k) => k.padStart(width))].join(" "));
  for (const a of keys) console.log([a.padEnd(width), ...keys.map((b) => String(counts.get(`${a}→${b}`) ?? 0).padStart(width))].join(" "));
}

const edges = importEdges();
const rank = (layer) => LAYER_ORDER.indexOf(layer);
const byLayer = new Map();
for (const { from, to } of edges) {
  const k = `${layerOf(from)}→${layerOf(to)}`;
  byLayer.set(k, (byLayer.get(k) ?? 0) + 1);
}
console.log(`${edges.length} imports between layered files`);
table("Imports between layers", byLayer, LAYER_ORDER);

const upward = edges.filter(({ from, to }) => rank(layerOf(to)) < rank(layerOf(from)));
const exceptionFor = ({ from, to }) =>
  EXCEPTIONS.find((e) => e.file === from && e.imports.some((p) => to === p || to.startsWith(`${p}/`)));
console.log(`\nUpward imports: ${upward.length} (the lint fails on any that is not an exception in eslint/layers.mjs)`);
for (const edge of upward) console.log(`  ${edge.from} → ${edge.to}  [${exceptionFor(edge)?.reason ?? "NOT AN EXCEPTION"}]`);

if (process.argv.includes("--folders")) {
  const byFolder = new Map();
  for (const { from, to } of edges) {
    const a = unitOf(from), b = unitOf(to);
    if (a !== b) byFolder.set(`${a} → ${b} (${layerOf(from)} → ${layerOf(to)})`, (byFolder.get(`${a} → ${b} (${layerOf(from)} → ${layerOf(to)})`) ?? 0) + 1);
  }
  console.log("\nImports between top-level folders");
  for (const [k, n] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${String(n).padStart(5)}  ${k}`);
}
