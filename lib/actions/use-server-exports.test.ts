import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { serverActionModules } from "./server-action-modules";

// "use server" files export only actions (async functions): anything else there would be callable from the browser
// or break the build. The domain code they call lives in lib/<domain>.
vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined }), headers: async () => new Headers() }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

const AsyncFunction = (async () => undefined).constructor;

describe('"use server" modules', () => {
  const modules = serverActionModules();
  it("are found", () => {
    expect(modules.length).toBeGreaterThanOrEqual(9);
  });

  for (const file of modules) {
    const rel = path.relative(process.cwd(), file);
    it(`${rel} exports only async functions`, async () => {
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
      const wrong = Object.entries(mod).filter(([, v]) => !(v instanceof AsyncFunction));
      expect(wrong.map(([k]) => k), `${rel} exports something other than an action`).toEqual([]);
    });

    it(`${rel} declares no exported value other than an action`, () => {
      // Types are erased, so the runtime check above does not see `export { x }` of a re-exported non-action.
      const source = fs.readFileSync(file, "utf8");
      const exports = source.match(/^export\s+(?!type\b|interface\b)(?:async\s+function|const|let|var|function|class|\{|\*|default)[^\n]*/gm) ?? [];
      const notActions = exports.filter((line) => !/^export\s+(async\s+function\s+\w+|const\s+\w+\s*=\s*(formAction|submitAction)\()/.test(line));
      expect(notActions, `${rel}: every exported value is an action made with formAction/submitAction or an async function`).toEqual([]);
    });
  }
});
