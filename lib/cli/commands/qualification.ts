import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { isCrowdError } from "@/lib/crowd/errors";
import { buildQualificationTest, type GoldTweet } from "@/lib/crowd/mturk/qualification-xml";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const USAGE = `usage: accord qualification --gold FILE --out DIR [--title TEXT] [--pass PERCENT]

Builds MTurk's qualification test from gold tweets: DIR/question-form.xml (QuestionForm, one radio-button
question per gold tweet listing the HumAID labels) and DIR/answer-key.xml (1 point per correct answer,
PercentageMapping). FILE is a CSV with a header tweet_id,text,label (labels: HumAID values).`;

/** Reads a gold CSV (tweet_id,text,label) and checks every label against the HumAID scheme. */
export function parseGoldCsv(text: string): GoldTweet[] {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: false }) as Array<Record<string, string>>;
  } catch (err) {
    throw new CliError(`gold file is not valid CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (rows.length === 0) throw new CliError("gold file has no rows");
  for (const col of ["tweet_id", "text", "label"]) {
    if (!(col in rows[0])) throw new CliError(`gold file needs the columns tweet_id,text,label (missing "${col}")`);
  }
  const values = new Set(HUMAID_LABELS.map((l) => l.value));
  const problems: string[] = [];
  const gold = rows.map((r, i) => {
    const line = i + 2;
    const label = (r.label ?? "").trim();
    if (!values.has(label)) problems.push(`line ${line}: label "${label}" is not a HumAID label`);
    if (!(r.tweet_id ?? "").trim()) problems.push(`line ${line}: empty tweet_id`);
    if (!(r.text ?? "").trim()) problems.push(`line ${line}: empty text`);
    return { tweetId: (r.tweet_id ?? "").trim(), text: r.text ?? "", label };
  });
  if (problems.length > 0) {
    throw new CliError(`gold file has ${problems.length} problem(s):\n  ${problems.slice(0, 20).join("\n  ")}\nlabels: ${[...values].join(", ")}`);
  }
  return gold;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    gold: { type: "string" },
    out: { type: "string" },
    title: { type: "string" },
    pass: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (!values.gold || !values.out) throw new CliError(`--gold and --out are required\n${USAGE}`, 2);
  const pass = values.pass === undefined ? 60 : Number(values.pass);
  if (!Number.isInteger(pass) || pass < 0 || pass > 100) throw new CliError("--pass must be an integer percentage (0–100)", 2);
  let text: string;
  try {
    text = readFileSync(values.gold, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${values.gold}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const gold = parseGoldCsv(text);
  let built;
  try {
    built = buildQualificationTest({ gold, labels: HUMAID_LABELS, title: values.title });
  } catch (err) {
    if (isCrowdError(err)) throw new CliError(err.message);
    throw err;
  }
  mkdirSync(values.out, { recursive: true });
  const formPath = path.join(values.out, "question-form.xml");
  const keyPath = path.join(values.out, "answer-key.xml");
  writeFileSync(formPath, built.questionFormXml);
  writeFileSync(keyPath, built.answerKeyXml);
  const needed = Math.ceil((pass * gold.length) / 100);
  process.stdout.write(
    `wrote ${formPath} (${gold.length} questions, ${Buffer.byteLength(built.questionFormXml)} bytes)\n` +
      `wrote ${keyPath} (${Buffer.byteLength(built.answerKeyXml)} bytes)\n` +
      `pass mark: score >= ${pass} (${needed} of ${gold.length} correct)\n`,
  );
  return 0;
}
