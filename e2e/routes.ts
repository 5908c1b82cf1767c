import fs from "node:fs";
import path from "node:path";

/**
 * Every page and route handler of the app, found on disk, so that a new page without a guard fails the
 * guard test. Dynamic segments get a placeholder value; route groups "(x)" do not appear in URLs.
 */
export const PUBLIC_PAGES = new Set(["/signin", "/setup"]);
// /prolific/task and /prolific/screening: Prolific participants are not Accord users; their Prolific session, checked with Prolific, is the credential.
export const PUBLIC_ROUTES = new Set<string>(["/api/health", "/prolific/task", "/prolific/screening", "/api/prolific/webhook"]);

function walk(dir: string, out: string[]) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
}

function toUrl(file: string, appDir: string): string {
  const segments = path
    .relative(appDir, path.dirname(file))
    .split(path.sep)
    .filter((s) => s && !(s.startsWith("(") && s.endsWith(")")))
    .map((s) => (s.startsWith("[") ? "placeholder-x" : s));
  return "/" + segments.join("/");
}

export function appRoutes(root = process.cwd()) {
  const appDir = path.join(root, "app");
  const files: string[] = [];
  walk(appDir, files);
  const pages = files.filter((f) => /\/page\.tsx?$/.test(f)).map((f) => toUrl(f, appDir));
  const handlers = files
    .filter((f) => /\/route\.tsx?$/.test(f))
    .map((f) => {
      const src = fs.readFileSync(f, "utf8");
      const methods = [...src.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
      return { url: toUrl(f, appDir), methods };
    });
  return { pages: [...new Set(pages)].sort(), handlers };
}
