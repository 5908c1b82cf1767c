#!/usr/bin/env node
// eld's "small" n-gram database as JSON (generated/eld-small.json), for the language detection worker
// (language-worker.mjs beside it): compiling eld's JavaScript data module costs ~150 MB of memory,
// parsing the same data as JSON ~45 MB. Run by `npm install` (postinstall); the worker also writes it on
// first use when it is missing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A file of eld's package (its exports map only lists the entries, so the path is resolved from one of them). */
function eldFile(relative) {
  return new URL(relative, import.meta.resolve("eld")).href; // eld → …/eld/src/entries/dynamic.js
}

export async function writeEldJson(file) {
  const { ngramsData } = await import(eldFile("../ngrams/small.js"));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(ngramsData));
  fs.renameSync(tmp, file);
}

/** eld's detector (the same code as `eld/small`) loaded with the JSON data. */
export async function loadEldFromJson(file) {
  const { createEld } = await import(eldFile("../languageDetector.js"));
  const { instance, loadData } = createEld();
  if (!loadData(JSON.parse(fs.readFileSync(file, "utf8")))) throw new Error("eld did not accept the data");
  return instance;
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const file = path.join(root, "generated", "eld-small.json");
  await writeEldJson(file);
  console.log(`eld: wrote ${path.relative(root, file)}`);
}
