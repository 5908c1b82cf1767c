import fs from "node:fs";
import path from "node:path";

/** Every "use server" module under lib/ and app/ (for the tests that check all server actions). */
export function serverActionModules(root = process.cwd()): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const head = fs.readFileSync(p, "utf8").trimStart();
        if (head.startsWith('"use server"') || head.startsWith("'use server'")) out.push(p);
      }
    }
  };
  for (const dir of ["lib", "app", "components"]) walk(path.join(root, dir));
  return out.sort();
}
