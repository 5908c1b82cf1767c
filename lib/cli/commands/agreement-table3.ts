import { CsvError } from "csv-parse/sync";
import { z } from "zod";
import { UserError } from "@/lib/errors";
import type { Judgment } from "@/lib/metrics/judgments";
import { type RepeatPolicy, RepeatJudgmentsError, repeatsNote, resolveRepeats } from "@/lib/metrics/repeats";
import { table3ByEvent, type Table3EventRow, type Table3Scope } from "@/lib/metrics/table3";
import { ratioSchema } from "@/lib/procedure/settings";
import { type CodedColumns, readCodedColumnsOfFile } from "@/lib/text/csv-coded-columns";
import { CliError } from "../errors";

/** `accord agreement FILE --table3`: the paper's Table 3 per event, in the agreed or all-judged scope. */
export const TABLE3_USAGE = `usage: accord agreement FILE --table3 [--scope agreed|all] [--first N] [--accept R]
                              [--repeats first|last|refuse] [--json]

The paper's Table 3 per event of FILE, a CSV with the columns item,annotator,label and optional event and
submitted_at (ISO 8601). Each item's judgments are ordered by submitted_at, then file order. Fleiss' kappa and
average observed agreement use each item's first N judgments (items with fewer are left out of them);
Krippendorff's alpha (nominal) and average majority agreement use all judgments.

  --scope agreed   (default; "accepted" too) only items whose top label is unique and has at least R of
                   their judgments: the released tweets, the scope the paper's figures imply
  --scope all      every judged item
  --first N        judgments per item for kappa and observed agreement (default 3, at least 2)
  --accept R       label acceptance ratio as num/den (default 2/3: top·den ≥ num·n)
  --repeats P      a worker who judged an item more than once: "refuse" (default) stops and names them;
                   "first" keeps each worker's earliest judgment of the item (by submitted_at, then file order),
                   "last" the latest; the count set aside goes to stderr and into the JSON
  --json           print one object: {"scope","first","events":[{"event","items","judgments","fleissKappa",
                   "averageObservedAgreement","krippendorffAlpha","averageMajorityAgreement"}],"repeatsSetAside":N}`;

const optionsSchema = z.object({
  scope: z
    .enum(["agreed", "accepted", "all"], { message: 'expected "agreed" or "all"' })
    .transform((s): Table3Scope => (s === "all" ? "all" : "agreed")),
  first: z.coerce.number({ message: "expected a whole number" }).int("expected a whole number").min(2, "must be at least 2"),
  accept: ratioSchema.refine((r) => r.num > 0, { message: "must be above 0" }),
});

export type Table3Options = { scope: string; first: string; accept: string; json: boolean; repeats?: RepeatPolicy };

export function runTable3(file: string, options: Table3Options): number {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`--${String(issue.path[0])}: ${issue.message}\n\n${TABLE3_USAGE}`, 2);
  }
  const { scope, first, accept } = parsed.data;
  const policy = options.repeats ?? "refuse";
  const rows = readTable3Csv(file);
  let kept: typeof rows;
  let setAside: number;
  try {
    // an item is a repeat only within its event (Table 3 is computed per event)
    const resolution = resolveRepeats(
      {
        count: rows.length,
        scope: (r) => rows[r].event ?? "",
        item: (r) => rows[r].item,
        annotator: (r) => rows[r].annotator,
        order: (r) => rows[r].order,
      },
      policy,
      { where: (rs) => `records ${rs.map((r) => r + 2).join(", ")}` },
    );
    kept = resolution.keep.map((r) => rows[r]);
    setAside = resolution.setAside;
  } catch (err) {
    if (err instanceof RepeatJudgmentsError) {
      throw new CliError(`${file}: ${err.message}`);
    }
    throw err;
  }
  if (setAside > 0) process.stderr.write(`note: ${repeatsNote(setAside, policy)}\n`);
  let events: Table3EventRow[];
  try {
    events = table3ByEvent(kept, { scope, first, accept });
  } catch (err) {
    if (err instanceof UserError) throw new CliError(`${file}: ${err.message}`);
    throw err;
  }
  process.stdout.write((options.json ? formatTable3Json(scope, first, events, setAside) : formatTable3Text(file, scope, first, events, setAside)) + "\n");
  return 0;
}

/** Rows of the CSV with their event and submission time (epoch ms) as the judgment order. */
export function readTable3Csv(file: string): Array<Judgment & { event?: string }> {
  let table: CodedColumns;
  try {
    table = readCodedColumnsOfFile(file, (record) => {
      const header = record.map((h) => h.toLowerCase());
      return ["item", "annotator", "label", "event", "submitted_at"].map((name) => header.indexOf(name));
    });
  } catch (err) {
    if (err instanceof CsvError) throw new CliError(`${file}: not valid CSV: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === "string") throw new CliError(`cannot read ${file}: ${code}`);
    throw err;
  }
  if (table.count < 1) throw new CliError(`${file} has no judgments (expected the header item,annotator,label)`);
  const header = table.header.map((h) => h.toLowerCase());
  if (!["item", "annotator", "label"].every((name) => header.includes(name))) throw new CliError(`${file}: the header must name item,annotator,label`);
  const [items, annotators, labels, events, times] = table.values;
  const [item, annotator, label, event, time] = table.codes;
  const hasEvent = header.includes("event");
  /** Epoch ms of each distinct submitted_at value (NaN when not ISO 8601). */
  const ms = times.map((at) => (/^\d{4}-\d{2}-\d{2}/.test(at) ? Date.parse(at) : NaN));
  const rows = new Array<Judgment & { event?: string }>(table.count);
  for (let r = 0; r < table.count; r++) {
    if (item[r] < 0 || annotator[r] < 0 || label[r] < 0) throw new CliError(`${file}: line ${table.lines[r]}: empty item, annotator or label`);
    const row: Judgment & { event?: string } = { item: items[item[r]], annotator: annotators[annotator[r]], label: labels[label[r]] };
    if (hasEvent) row.event = event[r] < 0 ? "" : events[event[r]];
    const t = time[r];
    if (t >= 0) {
      if (Number.isNaN(ms[t])) throw new CliError(`${file}: line ${table.lines[r]}: submitted_at "${times[t]}" is not an ISO 8601 time`);
      row.order = ms[t];
    }
    rows[r] = row;
  }
  return rows;
}

const jsonNumber = (x: number) => (Number.isFinite(x) ? x : null);

/** Exactly the documented object, keys in this order; NaN becomes null. */
export function formatTable3Json(scope: Table3Scope, first: number, events: Table3EventRow[], repeatsSetAside = 0): string {
  return JSON.stringify({
    scope,
    first,
    events: events.map((e) => ({
      event: e.event,
      items: e.items,
      judgments: e.judgments,
      fleissKappa: jsonNumber(e.fleissKappa),
      averageObservedAgreement: jsonNumber(e.averageObservedAgreement),
      krippendorffAlpha: jsonNumber(e.krippendorffAlpha),
      averageMajorityAgreement: jsonNumber(e.averageMajorityAgreement),
    })),
    repeatsSetAside,
  });
}

function formatTable3Text(file: string, scope: Table3Scope, first: number, events: Table3EventRow[], repeatsSetAside: number): string {
  const num = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : "n/a");
  const head = ["event", "items", "judgments", "kappa", "observed", "alpha", "majority"];
  const rows = events.map((e) => [
    e.event || "(all)",
    String(e.items),
    String(e.judgments),
    num(e.fleissKappa),
    num(e.averageObservedAgreement),
    num(e.krippendorffAlpha),
    num(e.averageMajorityAgreement),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => "  " + cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join("  ");
  const scopeText = scope === "agreed" ? "agreed items (with an accepted label)" : "all judged items";
  return [
    `Table 3 of ${file} over ${scopeText}; kappa and observed agreement on the first ${first} judgments of each item`,
    line(head),
    ...rows.map(line),
    ...(repeatsSetAside > 0 ? [`${repeatsSetAside} repeat judgment${repeatsSetAside === 1 ? "" : "s"} set aside`] : []),
  ].join("\n");
}
