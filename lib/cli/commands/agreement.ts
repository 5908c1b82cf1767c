import { CsvError } from "csv-parse/sync";
import { UserError } from "@/lib/errors";
import { type CodedJudgments, DuplicateJudgmentError, encodeCodedJudgments } from "@/lib/metrics/judgments";
import { agreementSummary, type AgreementSummary } from "@/lib/metrics/report";
import { parseCliArgs } from "../args";
import { type CodedColumns, readCodedColumnsOfFile } from "@/lib/text/csv-coded-columns";
import { CliError } from "../errors";

const USAGE = `usage: accord agreement FILE [--json]

Agreement of the judgments in FILE, a CSV with the header item,annotator,label (one judgment per row; labels are
strings; other columns are ignored). Computed over all judgments: Fleiss' kappa (Gwet's definition for a variable
number of raters), Krippendorff's alpha (nominal), average observed agreement and average majority agreement.
Items with a single judgment are reported and left out where a measure needs two judgments.

options:
  --table3 the paper's Table 3 per event in the agreed or all-judged scope (accord agreement --table3 --help)
  --json   print exactly one JSON object:
           {"items":N,"annotations":M,"labels":K,"fleissKappa":x,"krippendorffAlpha":x,
            "averageObservedAgreement":x,"averageMajorityAgreement":x}   (null where undefined)
  --help   show this help`;

const REQUIRED = ["item", "annotator", "label"] as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    json: { type: "boolean", default: false },
    table3: { type: "boolean", default: false },
    scope: { type: "string", default: "agreed" },
    first: { type: "string", default: "3" },
    accept: { type: "string", default: "2/3" },
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
  if (values.table3) return (await import("./agreement-table3")).runTable3(file, values);
  const { coded, lines } = readJudgmentsCsv(file);

  let data;
  try {
    data = encodeCodedJudgments(coded);
  } catch (err) {
    if (err instanceof DuplicateJudgmentError) {
      const shown = err.duplicates
        .slice(0, 5)
        .map((d) => `item "${d.item}" by annotator "${d.annotator}" on lines ${d.rows.map((r) => lines[r]).join(", ")}`)
        .join("; ");
      const more = err.duplicates.length > 5 ? ` (and ${err.duplicates.length - 5} more)` : "";
      throw new CliError(`${file}: duplicate judgments (one judgment per item and annotator): ${shown}${more}`);
    }
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
  process.stdout.write((values.json ? formatJson(summary) : formatTable(file, summary)) + "\n");
  return 0;
}

/** Reads the CSV into coded judgments; `lines[r]` is the file line of judgment r. Throws CliError on bad input. */
export function readJudgmentsCsv(file: string): { coded: CodedJudgments; lines: Int32Array } {
  let table: CodedColumns;
  try {
    table = readCodedColumnsOfFile(file, (headerRecord) => {
      if (headerRecord.length === 0) throw new CliError(`${file} is empty (expected a CSV with the header item,annotator,label)`);
      const header = headerRecord.map((h) => h.toLowerCase());
      const index = REQUIRED.map((name) => header.indexOf(name));
      const missing = REQUIRED.filter((_, k) => index[k] < 0);
      if (missing.length > 0) {
        throw new CliError(
          `${file}: missing column${missing.length === 1 ? "" : "s"} ${missing.join(", ")} ` +
            `(the header must name item,annotator,label; found: ${headerRecord.join(",") || "nothing"})`,
        );
      }
      return index;
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
  return { coded: { items, annotators, labels, item, annotator, label }, lines: table.lines };
}

/** Exactly the documented object, keys in this order; NaN (undefined measure) becomes null. */
export function formatJson(s: AgreementSummary): string {
  return JSON.stringify({
    items: s.items,
    annotations: s.annotations,
    labels: s.labels,
    fleissKappa: s.fleissKappa,
    krippendorffAlpha: s.krippendorffAlpha,
    averageObservedAgreement: s.averageObservedAgreement,
    averageMajorityAgreement: s.averageMajorityAgreement,
  });
}

function formatTable(file: string, s: AgreementSummary): string {
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
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const v = Math.max(...rows.map(([, x]) => x.length));
  return [`agreement of ${file}`, ...rows.map(([k, x]) => `  ${k.padEnd(w)}  ${x.padStart(v)}`)].join("\n");
}
