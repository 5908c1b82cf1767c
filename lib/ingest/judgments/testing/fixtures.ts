/**
 * Synthetic judgment exports in the platforms' shapes (no real worker ids or tweets): quoted multi-line text,
 * CRLF, a BOM, repeat judgments, labels needing a mapping, gold units and personal columns.
 */
const q = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const csv = (rows: string[][], { bom = true, crlf = true } = {}) => (bom ? "\uFEFF" : "") + rows.map((r) => r.map(q).join(",")).join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n");

/** CrowdFlower labels (need a map onto HumAID's): */
export const CF_LABEL_MAP: Record<string, string | null> = {
  "Infrastructure damage": "infrastructure_and_utility_damage",
  "Rescue / volunteering": "rescue_volunteering_or_donation_effort",
  "Not related": "not_humanitarian",
  "Can't judge": null,
};

export type CfOptions = { units?: number; workersPerUnit?: number; repeats?: number; malformed?: boolean };

/** A CrowdFlower full report: units × workers, unit 1 and 2 gold, `repeats` repeat judgments minutes later. */
export function crowdflowerReport({ units = 12, workersPerUnit = 3, repeats = 1, malformed = false }: CfOptions = {}): string {
  const labels = ["Infrastructure damage", "Rescue / volunteering", "Not related"];
  const header = ["_unit_id", "_created_at", "_golden", "_id", "_missed", "_started_at", "_tainted", "_channel", "_trust", "_worker_id", "_country", "_region", "_city", "_ip", "choose_one", "choose_one_gold", "tweet", "tweet_id"];
  const rows: string[][] = [header];
  let id = 1000;
  for (let u = 0; u < units; u++) {
    const gold = u < 2;
    const truth = labels[u % labels.length];
    for (let w = 0; w < workersPerUnit; w++) {
      const worker = `cfw${(u + w) % 6}`;
      const label = w === workersPerUnit - 1 && u % 4 === 3 ? labels[(u + 1) % labels.length] : truth;
      const minute = String(u * 5 + w).padStart(2, "0");
      rows.push([
        String(5000 + u), `10/30/2012 14:${minute}:00`, gold ? "true" : "false", String(id++), "", "", "false", "crowd_ch",
        "0.85", worker, "USA", "NY", "Brooklyn", `192.0.2.${u + w}`, label, gold ? `${truth}\n${labels[2]}` : "",
        `Sandy unit ${u}: "flooding" on\nline two, stay safe`, `26${String(u).padStart(6, "0")}`,
      ]);
    }
  }
  for (let r = 0; r < repeats; r++) {
    const base = rows[1 + 2 * workersPerUnit + r * workersPerUnit]; // a non-gold unit's first judgment
    const again = [...base];
    again[1] = base[1].replace(/:(\d\d):00$/, (_, m) => `:${m}:45`);
    again[3] = String(id++);
    again[14] = "Infrastructure damage";
    rows.push(again);
  }
  if (malformed) rows.push(["5099", "yesterday at noon", "false", String(id++), "", "", "false", "crowd_ch", "0.8", "cfw1", "USA", "NY", "Queens", "192.0.2.99", "Not related", "", "text", "26999999"]);
  return csv(rows);
}

/** An MTurk batch results file: 3 tweets per HIT (Input.tweet_id_N, Input.tweet_text_N, Answer.label_N), 3 assignments per HIT. */
export function mturkBatch({ hits = 4 }: { hits?: number } = {}): string {
  const header = ["HITId", "HITTypeId", "Title", "AssignmentId", "WorkerId", "AssignmentStatus", "AcceptTime", "SubmitTime", "WorkTimeInSeconds"];
  for (let k = 1; k <= 3; k++) header.push(`Input.tweet_id_${k}`, `Input.tweet_text_${k}`);
  for (let k = 1; k <= 3; k++) header.push(`Answer.label_${k}`);
  const labels = ["sympathy_and_support", "caution_and_advice", "Other"];
  const rows: string[][] = [header];
  for (let h = 0; h < hits; h++) {
    for (let a = 0; a < 3; a++) {
      const row = [`3HIT${h}`, "3TYPE", "Label tweets", `3ASG${h}_${a}`, `A${h % 2}W${a}`, h === 0 && a === 2 ? "Rejected" : "Approved", "Sun Oct 28 10:00:00 PDT 2012", `Sun Oct 28 10:1${a}:13 PDT 2012`, "70"];
      for (let k = 1; k <= 3; k++) row.push(`91${h}${k}`, `HIT ${h} tweet ${k}\r\nprayers "for" all`);
      for (let k = 1; k <= 3; k++) row.push(labels[(h + k + (a === 2 ? 1 : 0)) % 3]);
      rows.push(row);
    }
  }
  return csv(rows);
}

/** A plain item,annotator,label,submitted_at,text file with one repeat. */
export function plainJudgments(): string {
  const rows = [["item", "annotator", "label", "submitted_at", "text"]];
  for (let i = 0; i < 4; i++) for (let a = 0; a < 3; a++) rows.push([`77${i}`, `p${a}`, i % 2 ? "not_humanitarian" : "sympathy_and_support", `2020-01-0${i + 1}T10:0${a}:00Z`, `plain tweet ${i},\nsecond line`]);
  rows.push(["770", "p0", "not_humanitarian", "2020-01-01T11:00:00Z", "plain tweet 0,\nsecond line"]);
  return csv(rows, { bom: false, crlf: false });
}
