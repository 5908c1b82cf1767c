import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfNeeded } from "./build-if-needed.mjs";

describe("buildIfNeeded", () => {
  let root = "";
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("builds once for the same sources, even when the build rewrites a source file (next build rewrites tsconfig.json)", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "accord-build-"));
    fs.mkdirSync(path.join(root, "app"));
    fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default 1;\n");
    fs.writeFileSync(path.join(root, "tsconfig.json"), "{}\n");
    let builds = 0;
    const build = (dir: string) => {
      builds++;
      fs.mkdirSync(path.join(dir, ".next"), { recursive: true });
      fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "x");
      fs.writeFileSync(path.join(dir, "tsconfig.json"), '{ "include": [".next/types/**/*.ts"] }\n');
    };
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(buildIfNeeded(root, {}, { build, log })).toBe(true);
    expect(buildIfNeeded(root, {}, { build, log })).toBe(false);
    expect(builds).toBe(1);
    expect(lines[0]).toMatch(/first start.*the server starts and prints its address when the build ends/);
    expect(lines[1]).toMatch(/^accord: build done in \d+ s\.$/);
    // A changed source builds again.
    fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default 22;\n");
    expect(buildIfNeeded(root, {}, { build, log })).toBe(true);
    expect(builds).toBe(2);
  });
});
