import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { readTextFile } from "./read-text";

const dir = mkdtempSync(path.join(tmpdir(), "accord-read-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("reads ASCII, UTF-8 (with a BOM) and invalid UTF-8 exactly as readFileSync(file, 'utf8')", () => {
  const cases: Array<string | Buffer> = ["item,annotator,label\nt1,a,x\n", "\uFEFFlabel\ncafé,naïve 😀\n", Buffer.from([0x61, 0xff, 0x0a, 0xc3])];
  cases.forEach((content, k) => {
    const file = path.join(dir, `f${k}`);
    writeFileSync(file, content);
    expect(readTextFile(file)).toBe(readFileSync(file, "utf8"));
  });
  expect(() => readTextFile(path.join(dir, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
});
