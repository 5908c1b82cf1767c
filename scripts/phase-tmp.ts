import { readTextFile } from "@/lib/cli/read-text";
const f = ".tmp/bench-cli/judgments.csv";
const text = readTextFile(f);
console.log(text.length);
for (let k = 0; k < 3; k++) {
  let t = performance.now(); let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  console.log("scan", (performance.now() - t).toFixed(0), h);
  t = performance.now(); const a: string[] = new Array(1_200_000); for (let i = 0; i < 1_100_000; i++) a[i] = "x"; console.log("bigarray", (performance.now() - t).toFixed(0));
  t = performance.now(); const b: string[] = []; for (let i = 0; i < 1_100_000; i++) b.push("x"); console.log("push", (performance.now() - t).toFixed(0));
}
