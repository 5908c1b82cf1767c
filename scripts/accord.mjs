#!/usr/bin/env node
// The `accord` command (package.json "bin"): runs the CLI built into dist/cli by scripts/build-cli.mjs (at
// `npm install`). When a source file is newer than that build (a checkout being edited), it rebuilds first;
// when it cannot build, it says so and runs the TypeScript sources through tsx instead.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildCli, CLI_DIR, freshManifest } from "./build-cli.mjs";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

async function loadMain() {
  let manifest = freshManifest();
  if (!manifest) {
    try {
      manifest = await buildCli();
    } catch (err) {
      const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
      process.stderr.write(`accord: cannot build the CLI into dist/cli (${why}); running the TypeScript sources through tsx (slower)\n`);
      return loadFromSources();
    }
  }
  return import(pathToFileURL(path.join(CLI_DIR, manifest.entry)).href);
}

async function loadFromSources() {
  const root = path.dirname(CLI_DIR).replace(/[/\\]dist$/, "");
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  return import(pathToFileURL(path.join(root, "lib/cli/main.ts")).href);
}

const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2));
