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

export function buildIfNeeded(root, env = process.env) {
  const stamp = path.join(root, ".next", "accord-fingerprint");
  const want = sourceFingerprint(root);
  const have = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8") : "";
  if (want === have && fs.existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  console.log("accord: building the app (first start or changed sources; takes a minute or two)…");
  const res = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { cwd: root, stdio: "inherit", env });
  if (res.status !== 0) {
    console.error(`\naccord: build failed (exit ${res.status ?? res.signal}).`);
    process.exit(res.status || 1);
  }
  fs.writeFileSync(stamp, want);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  buildIfNeeded(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
}
