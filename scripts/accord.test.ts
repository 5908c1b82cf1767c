import { execFile } from "node:child_process";
import fs from "node:fs";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

// The `accord` command as installed: scripts/accord.mjs running the bundle in dist/cli (built at postinstall
// and by the test set-up), so a bundle that does not build or load fails `npm test`.
const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const cliDir = path.join(root, "dist", "cli");
const dir = mkdtempSync(path.join(tmpdir(), "accord-built-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifestSchema = z.object({ entry: z.string(), outputs: z.array(z.string()), inputs: z.array(z.string()), startedAt: z.number() });
const accord = (...args: string[]) => exec(process.execPath, [path.join(root, "scripts", "accord.mjs"), ...args], { cwd: root });

/** The bundle files `file` imports statically, transitively (dynamic imports are the per-command chunks). */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const text = fs.readFileSync(path.join(cliDir, file), "utf8");
  for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^;("']*?["']([^"']+)["'];?$/gm)) {
    if (seen.has(spec)) continue;
    seen.add(spec);
    if (spec.startsWith("./")) staticImports(spec.slice(2), seen);
  }
  return seen;
}

describe("the built accord command", () => {
  it("--help runs the bundle (no tsx fallback) and its entry loads no database, AWS or Next.js package", async () => {
    const { stdout, stderr } = await accord("--help");
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^usage: accord <command> \[options\]\n\ncommands:\n {2}agreement /);
    const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(cliDir, "manifest.json"), "utf8")));
    for (const input of manifest.inputs) expect(fs.statSync(path.join(root, input)).mtimeMs, input).toBeLessThan(manifest.startedAt);
    const loaded = [...staticImports(manifest.entry)];
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((s) => !s.startsWith("./") && !s.startsWith("node:"))).toEqual([]);
    const text = manifest.outputs.map((o) => fs.readFileSync(path.join(cliDir, o), "utf8")).join("\n");
    expect(text).toMatch(/from "@prisma\/client\/runtime\//); // the database chunks exist, only not on --help's path
  });

  it("agreement --json prints the exact object (as the tsx-run command printed it)", async () => {
    const csv = path.join(dir, "small.csv");
    writeFileSync(csv, "item,annotator,label\nt1,a,x\nt1,b,x\nt1,c,y\nt2,a,y\nt2,b,y\nt3,a,x\nt3,c,z\n");
    const { stdout, stderr } = await accord("agreement", csv, "--json");
    expect(stderr).toBe("");
    expect(stdout).toBe(
      '{"items":3,"annotations":7,"labels":3,"fleissKappa":0.10891089108910892,"krippendorffAlpha":0.19999999999999996,' +
        '"averageObservedAgreement":0.4444444444444444,"averageMajorityAgreement":0.7222222222222222,"repeatsSetAside":0}\n',
    );
  });

  it("reports an unknown command with exit code 2", async () => {
    const failed = await accord("nope").catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/^accord: unknown command "nope"/);
  });
});
