import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { EXCEPTIONS, LAYER_ORDER, LAYERS, layerOf, OUTSIDE, ROOT } from "../eslint/layers.mjs";

// The layer lint of eslint/layers.mjs, run through ESLint's API with the project's own eslint.config.mjs on planted
// source texts (lintText with a file path: nothing is written), so the rule is proved to fail on an upward import.
const RULE = "import/no-restricted-paths";
// Loading the whole config and the TypeScript resolver takes seconds; tens of seconds on a loaded machine.
const LINT_TIMEOUT = 180_000;

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe("the layer lint (app → components → lib features → lib platform)", () => {
  it.each([
    ["platform → feature", "lib/db/planted-upward.ts", 'import { createEvent } from "@/lib/events/create-event";\nexport const x = createEvent;\n'],
    ["platform → feature, relative", "lib/crowd/planted-upward.ts", 'import { createEvent } from "../events/create-event";\nexport const x = createEvent;\n'],
    ["feature → components", "lib/events/planted-upward.ts", 'import { Card } from "@/components/ui/card";\nexport const x = Card;\n'],
    ["components → app", "components/planted-upward.tsx", 'import Page from "@/app/(app)/events/page";\nexport const x = Page;\n'],
    ["platform → app entry file", "lib/db/planted-upward.ts", 'import { register } from "@/instrumentation";\nexport const x = register;\n'],
  ])("fails on a planted upward import: %s", async (_name, file, code) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Layers point one way");
  }, LINT_TIMEOUT);

  it.each([
    ["feature → platform", "lib/events/planted-downward.ts", 'import { formatInt } from "@/lib/text/format";\nexport const x = formatInt;\n'],
    ["feature → feature", "lib/campaign/planted-sideways.ts", 'import { createEvent } from "@/lib/events/create-event";\nexport const x = createEvent;\n'],
    ["app → everything below", "app/planted-downward.tsx", 'import { Card } from "@/components/ui/card";\nimport { createEvent } from "@/lib/events/create-event";\nimport { formatInt } from "@/lib/text/format";\nexport const x = [Card, createEvent, formatInt];\n'],
  ])("passes an import that points down or sideways: %s", async (_name, file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  }, LINT_TIMEOUT);

  it("allows an exception only to its own file", async () => {
    const code = 'import { register } from "@/instrumentation";\nexport const x = register;\n';
    expect(await layerErrors("lib/config/startup.test.ts", code)).toEqual([]);
    expect(await layerErrors("lib/config/other.test.ts", code)).toHaveLength(1);
  }, LINT_TIMEOUT);
});

describe("the LAYERS table", () => {
  it("names every top-level folder and shared file of lib/ (a new folder needs its layer)", () => {
    const entries = fs
      .readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)))
      .map((e) => `lib/${e.name}`);
    expect(entries.filter((e) => !(e in LAYERS))).toEqual([]);
    expect(Object.keys(LAYERS).filter((k) => !entries.includes(k))).toEqual([]); // no stale names either
  });

  it("names paths that exist outside lib/ too", () => {
    expect(Object.keys(OUTSIDE).filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it("gives every exception a reason and an upward import of a file that exists", () => {
    for (const ex of EXCEPTIONS) {
      expect(ex.reason.length, ex.file).toBeGreaterThan(10);
      expect(fs.existsSync(path.join(ROOT, ex.file)), ex.file).toBe(true);
      for (const imported of ex.imports) {
        expect(fs.existsSync(path.join(ROOT, imported)), imported).toBe(true);
        const rank = (p: string) => LAYER_ORDER.indexOf(layerOf(p)!);
        expect(rank(imported), `${ex.file} → ${imported} is not upward`).toBeLessThan(rank(ex.file));
      }
    }
  });
});
