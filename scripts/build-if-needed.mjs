#!/usr/bin/env node
// Builds the Next.js app when its sources differ from the last build (a fingerprint of file sizes and
// modification times under .next/accord-fingerprint). Used by `npm start` and `npm test`.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SOURCES = ["app", "components", "lib", "public", "generated", "instrumentation.ts", "proxy.ts", "next.config.js", "postcss.config.mjs", "package.json", "tsconfig.json", "tsconfig.build.json"];

export function sourceFingerprint(root) {
  const hash = crypto.createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name === "node_modules" || name.startsWith(".")) continue;
        walk(path.join(p, name));
      }
    } else if (!/\.test\.tsx?$/.test(p)) {
      hash.update(`${path.relative(root, p)}\0${st.size}\0${st.mtimeMs}\0`);
    }
  };
  for (const p of SOURCES) walk(path.join(root, p));
  return hash.digest("hex");
}

/** `next build` in `root`, its output on this terminal; exits the process when it fails. */
function nextBuild(root, env) {
  const res = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { cwd: root, stdio: "inherit", env });
  if (res.status !== 0) {
    console.error(`\naccord: build failed (exit ${res.status ?? res.signal}).`);
    process.exit(res.status || 1);
  }
}

/**
 * Builds when the sources changed since the last build. The fingerprint is taken after the build: `next build`
 * itself rewrites tsconfig.json, and a fingerprint taken before it made the next `npm start` or `npm test` build
 * the same sources again.
 */
export function buildIfNeeded(root, env = process.env, { build = nextBuild, log = console.log } = {}) {
  const stamp = path.join(root, ".next", "accord-fingerprint");
  const want = sourceFingerprint(root);
  const have = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : "";
  if (want === have && fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  log(
    `accord: building the app (${have ? "the sources changed since the last build" : "first start"}). This takes 2 to 5 minutes on a small machine; ` +
      "the server starts and prints its address when the build ends. The build's own steps follow.",
  );
  const started = Date.now();
  build(root, env);
  fs.mkdirSync(path.join(root, ".next"), { recursive: true });
  fs.writeFileSync(stamp, sourceFingerprint(root));
  log(`accord: build done in ${Math.round((Date.now() - started) / 1000)} s.`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  buildIfNeeded(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
}
