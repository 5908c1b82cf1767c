import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every lib module that reaches the database or a secret says so with `import "server-only"`, so that a client
// component importing it fails the build instead of shipping it to the browser.
const SECRET_MODULES = ["lib/secrets/derive-key.ts", "lib/secrets/secret-box.ts", "lib/crowd/mturk/settings.ts", "lib/auth/session.ts"];

function libModules(dir = "lib"): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return libModules(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("server-only", () => {
  const modules = libModules();
  const touchesDb = modules.filter((p) => /from "@\/lib\/db\/client"/.test(fs.readFileSync(p, "utf8")) || p === path.join("lib", "db", "client.ts"));

  it("finds the database modules", () => {
    expect(touchesDb.length).toBeGreaterThan(40);
  });

  it("marks every module that touches the database or secrets (\"use server\" files are server-only already)", () => {
    const unmarked = [...new Set([...touchesDb, ...SECRET_MODULES])].filter((p) => {
      const source = fs.readFileSync(p, "utf8");
      return !/^"use server";/.test(source) && !/^import "server-only";$/m.test(source);
    });
    expect(unmarked).toEqual([]);
  });
});
