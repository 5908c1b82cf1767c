import { CsvError } from "csv-parse/sync";
import { UserError } from "@/lib/errors";
import { type CodedJudgments, encodeCodedJudgments } from "@/lib/metrics/judgments";
import { agreementSummary, type AgreementSummary } from "@/lib/metrics/report";
import { REPEAT_POLICIES, type RepeatPolicy, RepeatJudgmentsError, repeatsNote, resolveRepeats } from "@/lib/metrics/repeats";
import { parseCliArgs } from "../args";
import { type CodedColumns, readCodedColumnsOfFile } from "@/lib/text/csv-coded-columns";
import { CliError } from "../errors";

const USAGE = `usage: accord agreement FILE [--repeats first|last|refuse] [--json]

Agreement of the judgments in FILE, a CSV with the header item,annotator,label (one judgment per row; labels are
strings; other columns are ignored). Computed over all judgments: Fleiss' kappa (Gwet's definition for a variable
number of raters), Krippendorff's alpha (nominal), average observed agreement and average majority agreement.
Items with a single judgment are reported and left out where a measure needs two judgments.

options:
  --repeats P  a worker who judged an item more than once: "refuse" (default) stops and names them; "first"
           keeps each worker's earliest judgment of the item (by submitted_at when the file has it, then file
           order), "last" the latest; the count set aside goes to stderr and into the JSON ("repeatsSetAside")
  --table3 the paper's Table 3 per event in the agreed or all-judged scope (accord agreement --table3 --help)
  --json   print exactly one JSON object:
           {"items":N,"annotations":M,"labels":K,"fleissKappa":x,"krippendorffAlpha":x,
            "averageObservedAgreement":x,"averageMajorityAgreement":x,"repeatsSetAside":N}   (null where undefined)
  --help   show this help`;

const REQUIRED = ["item", "annotator", "label"] as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    json: { type: "boolean", default: false },
    table3: { type: "boolean", default: false },
    scope: { type: "string", default: "agreed" },
    first: { type: "string", default: "3" },
    accept: { type: "string", default: "2/3" },
    repeats: { type: "string", default: "refuse" },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    process.stdout.write((values.table3 ? (await import("./agreement-table3")).TABLE3_USAGE : USAGE) + "\n");
    return 0;
  }
  if (positionals.length !== 1) {
    throw new CliError(
      positionals.length === 0 ? `missing FILE\n\n${USAGE}` : `expected one FILE, got ${positionals.length}\n\n${USAGE}`,
      2,
    );
  }
  const file = positionals[0];
  // loaded only for --table3 (zod and the procedure's settings are not needed otherwise)
  if (values.table3) {
    const table3 = await import("./agreement-table3");
    return table3.runTable3(file, { ...values, repeats: parseRepeatPolicy(values.repeats, table3.TABLE3_USAGE) });
  }
  const policy = parseRepeatPolicy(values.repeats, USAGE);
  const read = readJudgmentsCsv(file);
  const { coded, setAside } = applyRepeats(file, read, policy);
  if (setAside > 0) process.stderr.write(`note: ${repeatsNote(setAside, policy)}\n`);

  let data;
  try {
    data = encodeCodedJudgments(coded);
  } catch (err) {
    if (err instanceof UserError) throw new CliError(`${file}: ${err.message}`);
    throw err;
  }

  const singles: string[] = [];
  for (let i = 0; i < data.items.length; i++) {
    if (data.itemStart[i + 1] - data.itemStart[i] < 2) singles.push(data.items[i]);
  }
  if (singles.length === data.items.length) {
    throw new CliError(`${file}: no item has two or more judgments, so agreement cannot be computed`);
  }
  if (singles.length > 0) {
    const names = singles.slice(0, 5).map((s) => `"${s}"`).join(", ") + (singles.length > 5 ? `, …` : "");
    process.stderr.write(
      `note: ${singles.length} item${singles.length === 1 ? "" : "s"} with a single judgment (${names}) ` +
        `left out of observed agreement, majority agreement and alpha (Fleiss' category shares still count them)\n`,
    );
  }

  const summary = agreementSummary(data);
  process.stdout.write((values.json ? formatJson(summary, setAside) : formatTable(file, summary, setAside)) + "\n");
  return 0;
}

export function parseRepeatPolicy(value: string, usage: string): RepeatPolicy {
  if (!(REPEAT_POLICIES as readonly string[]).includes(value)) {
    throw new CliError(`--repeats: expected first, last or refuse, got "${value}"\n\n${usage}`, 2);
  }
  return value as RepeatPolicy;
}

/** The judgments after the repeat policy (rows set aside removed, in file order). */
function applyRepeats(
  file: string,
  { coded, lines, times }: { coded: CodedJudgments; lines: Int32Array; times: Float64Array | null },
  policy: RepeatPolicy,
): { coded: CodedJudgments; lines: Int32Array; setAside: number } {
  let resolution;
  try {
    resolution = resolveRepeats(
      {
        count: coded.item.length,
        item: (r) => coded.items[coded.item[r]],
        annotator: (r) => coded.annotators[coded.annotator[r]],
        order: times ? (r) => times[r] : undefined,
      },
      policy,
      { where: (rows) => `lines ${rows.map((r) => lines[r]).join(", ")}` },
    );
  } catch (err) {
    if (err instanceof RepeatJudgmentsError) throw new CliError(`${file}: ${err.message}`);
    throw err;
  }
  if (resolution.setAside === 0) return { coded, lines, setAside: 0 };
  const pick = (a: Int32Array) => Int32Array.from(resolution.keep, (r) => a[r]);
  return {
    coded: { ...coded, item: pick(coded.item), annotator: pick(coded.annotator), label: pick(coded.label) },
    lines: pick(lines),
    setAside: resolution.setAside,
  };
}

/** Reads the CSV into coded judgments; `lines[r]` is the file line of judgment r. Throws CliError on bad input. */
export function readJudgmentsCsv(file: string): { coded: CodedJudgments; lines: Int32Array; times: Float64Array | null } {
  let table: CodedColumns;
  try {
    table = readCodedColumnsOfFile(file, (headerRecord) => {
      if (headerRecord.length === 0) throw new CliError(`${file} is empty (expected a CSV with the header item,annotator,label)`);
      const header = headerRecord.map((h) => h.toLowerCase());
      const index = REQUIRED.map((name) => header.indexOf(name));
      const at = header.indexOf("submitted_at");
      const missing = REQUIRED.filter((_, k) => index[k] < 0);
      if (missing.length > 0) {
        throw new CliError(
          `${file}: missing column${missing.length === 1 ? "" : "s"} ${missing.join(", ")} ` +
            `(the header must name item,annotator,label; found: ${headerRecord.join(",") || "nothing"})`,
        );
      }
      return at >= 0 ? [...index, at] : index;
    });
  } catch (err) {
    if (err instanceof CsvError) throw new CliError(`${file}: not valid CSV: ${err.message}`);
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw err;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code;
    throw new CliError(`cannot read ${file}: ${why}`);
  }
  if (table.count < 1) throw new CliError(`${file} has a header but no judgments`);
  const [item, annotator, label] = table.codes;
  for (let r = 0; r < table.count; r++) {
    if (item[r] < 0 || annotator[r] < 0 || label[r] < 0) {
      const empty = REQUIRED.filter((_, k) => table.codes[k][r] < 0);
      throw new CliError(`${file}: line ${table.lines[r]}: empty ${empty.join(", ")}`);
    }
  }
  const [items, annotators, labels] = table.values;
  return { coded: { items, annotators, labels, item, annotator, label }, lines: table.lines, times: readTimes(file, table) };
}

/** Epoch ms per record from the optional submitted_at column (NaN when empty); null without the column. */
function readTimes(file: string, table: CodedColumns): Float64Array | null {
  if (table.codes.length < 4) return null;
  const values = table.values[3].map((at) => {
    const ms = Date.parse(at);
    if (!/^\d{4}-\d{2}-\d{2}/.test(at) || Number.isNaN(ms)) return { at, ms: NaN, bad: true };
    return { at, ms, bad: false };
  });
  const codes = table.codes[3];
  const times = new Float64Array(table.count);
  for (let r = 0; r < table.count; r++) {
    const v = codes[r] < 0 ? null : values[codes[r]];
    if (v?.bad) throw new CliError(`${file}: line ${table.lines[r]}: submitted_at "${v.at}" is not an ISO 8601 time`);
    times[r] = v ? v.ms : NaN;
  }
  return times;
}

/** Exactly the documented object, keys in this order; NaN (undefined measure) becomes null. */
export function formatJson(s: AgreementSummary, repeatsSetAside = 0): string {
  return JSON.stringify({
    items: s.items,
    annotations: s.annotations,
    labels: s.labels,
    fleissKappa: s.fleissKappa,
    krippendorffAlpha: s.krippendorffAlpha,
    averageObservedAgreement: s.averageObservedAgreement,
    averageMajorityAgreement: s.averageMajorityAgreement,
    repeatsSetAside,
  });
}

function formatTable(file: string, s: AgreementSummary, repeatsSetAside: number): string {
  const num = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : "n/a");
  const int = (x: number) => x.toLocaleString("en-US");
  const rows: Array<[string, string]> = [
    ["items", int(s.items)],
    ["annotations", int(s.annotations)],
    ["labels", int(s.labels)],
    ["Fleiss' kappa", num(s.fleissKappa)],
    ["Krippendorff's alpha (nominal)", num(s.krippendorffAlpha)],
    ["average observed agreement", num(s.averageObservedAgreement)],
    ["average majority agreement", num(s.averageMajorityAgreement)],
    ...(repeatsSetAside > 0 ? [["repeat judgments set aside", int(repeatsSetAside)] as [string, string]] : []),
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const v = Math.max(...rows.map(([, x]) => x.length));
  return [`agreement of ${file}`, ...rows.map(([k, x]) => `  ${k.padEnd(w)}  ${x.padStart(v)}`)].join("\n");
}
