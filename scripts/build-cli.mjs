#!/usr/bin/env node
// Builds the `accord` command (lib/cli) into dist/cli/ as ES modules, one chunk per command (esbuild, code
// splitting), with every npm package left external (loaded from node_modules at run time). Runs at `npm install`
// (postinstall); scripts/accord.mjs rebuilds when a source file is newer than the build.
// Every output file name carries a content hash and dist/cli/manifest.json (written last, atomically) names the
// entry, so a build never changes a file that a running `accord` may still import.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const CLI_DIR = path.join(root, "dist", "cli");
export const MANIFEST = path.join(CLI_DIR, "manifest.json");
/** Files whose change invalidates a build besides the bundled sources. */
const CONFIG_INPUTS = ["tsconfig.json", "package.json", "scripts/build-cli.mjs"];
/** Outputs of earlier builds are removed once they are this old (a running `accord` may still load them). */
const KEEP_OLD_MS = 10 * 60_000;

/** `import "server-only"` marks modules the browser must not get; for the CLI it is an empty module. */
const serverOnly = {
  name: "server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "accord-empty" }));
    build.onLoad({ filter: /.*/, namespace: "accord-empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** Builds the CLI; returns the manifest ({ entry, inputs, startedAt }). */
export async function buildCli() {
  const { build } = await import("esbuild");
  const startedAt = Date.now();
  fs.mkdirSync(CLI_DIR, { recursive: true });
  const tmp = path.join(CLI_DIR, `.build-${process.pid}-${startedAt}`);
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: { main: "lib/cli/main.ts" },
      outdir: tmp,
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      plugins: [serverOnly],
      metafile: true,
      legalComments: "none",
      logLevel: "silent",
    });
    const outputs = Object.keys(result.metafile.outputs).map((o) => path.basename(o));
    const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === "lib/cli/main.ts")?.[0];
    if (!entry) throw new Error("esbuild produced no entry for lib/cli/main.ts");
    // Hashed names: a file of the same name already in place has the same content, so renaming over it is safe.
    for (const name of outputs) fs.renameSync(path.join(tmp, name), path.join(CLI_DIR, name));
    const inputs = [...Object.keys(result.metafile.inputs).filter((i) => !i.includes(":")), ...CONFIG_INPUTS];
    const manifest = { entry: path.basename(entry), outputs, inputs, startedAt };
    const next = `${MANIFEST}.${process.pid}.tmp`;
    fs.writeFileSync(next, JSON.stringify(manifest));
    fs.renameSync(next, MANIFEST);
    removeOldOutputs(new Set([...outputs, "manifest.json"]));
    return manifest;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function removeOldOutputs(current) {
  const now = Date.now();
  for (const name of fs.readdirSync(CLI_DIR)) {
    if (current.has(name)) continue;
    const file = path.join(CLI_DIR, name);
    try {
      if (now - fs.statSync(file).mtimeMs > KEEP_OLD_MS) fs.rmSync(file, { recursive: true, force: true });
    } catch {
      // another build removed it first
    }
  }
}

/** The manifest when every input is older than the build's start; null when missing or stale. */
export function freshManifest() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
  } catch {
    return null;
  }
  for (const input of manifest.inputs) {
    const stat = fs.statSync(path.join(root, input), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs >= manifest.startedAt) return null;
  }
  return manifest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  const manifest = await buildCli();
  console.log(`accord: built the CLI into dist/cli (${manifest.outputs.length} files, ${Math.round(performance.now() - started)} ms)`);
}
