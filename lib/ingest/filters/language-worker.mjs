// Language detection off the main thread (see language-pool.ts). Plain JavaScript so that it runs the same
// under the CLI (tsx) and the built web server. Receives { id, texts } (texts already cleaned for detection),
// answers { id, langs } with an ISO 639-1 code or null (eld calls the detection unreliable) per text.
//
// eld's "small" database ships as a 1.6 MB JavaScript object literal; compiling it costs about 150 MB of
// memory, the same data read as JSON about 45 MB. So the worker reads generated/eld-small.json (written by
// `npm install`, see eld-data.mjs, or here on first use) into eld's own detector; the module is
// the fallback.
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { loadEldFromJson, writeEldJson } from "./eld-data.mjs";

async function load() {
  const jsonFile = workerData?.jsonFile;
  if (jsonFile) {
    try {
      if (!fs.existsSync(jsonFile)) await writeEldJson(jsonFile);
      return await loadEldFromJson(jsonFile);
    } catch {
      // eld's internals moved, or the cache cannot be written: use the package's own entry.
    }
  }
  return (await import("eld/small")).eld;
}

const eld = await load();
parentPort.on("message", ({ id, texts }) => {
  const langs = new Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const r = eld.detect(texts[i]);
    langs[i] = r.language && r.isReliable() ? r.language : null;
  }
  parentPort.postMessage({ id, langs });
});
