/**
 * A synthetic report shaped like a CrowdFlower full report exported for `accord agreement` (item, annotator, label,
 * submitted_at renamed from _unit_id, _worker_id, the label column and _created_at), with the platform's other
 * columns, quoted multi-line text, CRLF and a BOM, and a few repeat judgments: the same worker on the same unit again,
 * minutes later. No real worker ids or tweets.
 */
export type ReportRow = { item: string; annotator: string; label: string; at: string; repeat: "none" | "earlier" | "later" };

const LABELS = ["infrastructure_damage", "rescue_volunteering", "sympathy", "not_humanitarian"];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rows in file order: units × 5 workers, then `repeats` repeat judgments spread through the file. */
export function crowdflowerRows({ units = 30, repeats = 8, seed = 7 }: { units?: number; repeats?: number; seed?: number } = {}): ReportRow[] {
  const rand = rng(seed);
  const rows: ReportRow[] = [];
  const start = Date.UTC(2012, 9, 30, 12, 0, 0);
  for (let u = 0; u < units; u++) {
    const truth = LABELS[u % LABELS.length];
    const workers = new Set<number>();
    while (workers.size < 5) workers.add(Math.floor(rand() * 12));
    let k = 0;
    for (const w of workers) {
      const label = rand() < 0.7 ? truth : LABELS[Math.floor(rand() * LABELS.length)];
      const at = new Date(start + (u * 10 + k++) * 60_000).toISOString();
      rows.push({ item: `6${String(u).padStart(8, "0")}`, annotator: `w${String(w).padStart(3, "0")}`, label, at, repeat: "none" });
    }
  }
  // repeats: a worker's second judgment of a unit, minutes later, placed after the first in the file
  for (let x = 0; x < repeats; x++) {
    const at = Math.floor((x * rows.length) / repeats);
    const first = rows[at];
    first.repeat = "earlier";
    const later = new Date(Date.parse(first.at) + 3 * 60_000).toISOString();
    const label = LABELS[(LABELS.indexOf(first.label) + 1) % LABELS.length];
    rows.splice(at + 1 + (x % 2), 0, { ...first, label, at: later, repeat: "later" });
  }
  return rows;
}

const q = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The report's CSV text (BOM, CRLF), with a platform's extra columns and multi-line quoted tweet text. */
export function crowdflowerCsv(rows: readonly ReportRow[]): string {
  const header = ["item", "_golden", "_unit_state", "_trust", "annotator", "_country", "_city", "_ip", "submitted_at", "label", "tweet"];
  const lines = [header.join(",")];
  rows.forEach((r, i) => {
    const tweet = `Storm update ${r.item}:\nwater "rising" on 5th, stay safe`;
    lines.push([r.item, "false", "finalized", (0.8 + (i % 20) / 100).toFixed(2), r.annotator, "USA", "Somewhere", `10.0.0.${i % 250}`, r.at, r.label, tweet].map(q).join(","));
  });
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
