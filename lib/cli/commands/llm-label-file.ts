import "server-only";
import path from "node:path";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { createLlmClient } from "@/lib/crowd/llm/client";
import { labelItems } from "@/lib/crowd/llm/label-items";
import { tokenCostCents } from "@/lib/crowd/llm/label-run";
import { itemIds } from "@/lib/crowd/llm/prompt";
import { getLlmApiKey, getLlmSettings } from "@/lib/crowd/llm/settings";
import type { Db } from "@/lib/db/client";
import { readTweetFile } from "@/lib/ingest/read-file";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { DEFAULT_CURRENCY, minorToMajor } from "@/lib/text/format";
import { CliError } from "../errors";

/** CSV field: quoted when it holds a comma, quote or line break. */
const csv = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * `accord llm label --file FILE`: the tweets of any supported tweet file labelled with the endpoint of Settings,
 * without an event: no gold (nothing graded, no examples) and no ledger. Prints a CSV `tweet_id,label` (an empty
 * label: no answer) on stdout and the summary line on stderr.
 */
export async function labelFile(db: Db, file: string, { scheme: schemeSlug, model, temperature }: { scheme: string; model?: string; temperature?: number }, { stdout, stderr }: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const scheme = await db.labelScheme.findUnique({ where: { slug: schemeSlug }, select: { labels: { orderBy: { position: "asc" }, select: { value: true, name: true, description: true } } } });
  if (!scheme) throw new CliError(`no label scheme with slug "${schemeSlug}"`);
  let read: Awaited<ReturnType<typeof readTweetFile>>;
  try {
    read = await readTweetFile(file, { fileName: path.basename(file) });
  } catch (err) {
    throw new CliError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (read.errors.length) stderr.write(`accord llm label: skipped ${read.errors.length} unreadable rows\n`);
  const s = await getLlmSettings(db);
  const client = createLlmClient({ baseUrl: s.baseUrl, apiKey: await getLlmApiKey(db), model: model ?? s.model, temperature: temperature ?? s.temperature, timeoutMs: s.timeoutSeconds * 1000, breaker: new CircuitBreaker() });
  const size = DEFAULT_PROCEDURE_SETTINGS.hitSize;
  const batches = Array.from({ length: Math.ceil(read.rows.length / size) }, (_, b) => read.rows.slice(b * size, (b + 1) * size));
  const results: Array<Array<string | null>> = [];
  const tokens = { prompt: 0, completion: 0 };
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const b = next++;
      const ids = itemIds(batches[b].length);
      const answers = await labelItems(client, scheme.labels, [], ids.map((id, i) => ({ id, text: batches[b][i].text })), {
        onUsage: (p, c) => {
          tokens.prompt += p;
          tokens.completion += c;
        },
      });
      results[b] = ids.map((id) => answers.get(id) ?? null);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(s.concurrency, batches.length)) }, worker));
  stdout.write("tweet_id,label\n");
  let noAnswer = 0;
  batches.forEach((rows, b) =>
    rows.forEach((r, i) => {
      const label = results[b][i];
      if (label === null) noAnswer++;
      stdout.write(`${csv(r.externalId)},${label ?? ""}\n`);
    }),
  );
  const cents = tokenCostCents(tokens.prompt, tokens.completion, s.inputPricePerMillion, s.outputPricePerMillion);
  const digits = Math.round(-Math.log10(minorToMajor(1, DEFAULT_CURRENCY)));
  stderr.write(
    `file ${path.basename(file)} model=${model ?? s.model} tweets=${read.rows.length} labelled=${read.rows.length - noAnswer} no-answer=${noAnswer} prompt-tokens=${tokens.prompt} completion-tokens=${tokens.completion} cost=${minorToMajor(cents, DEFAULT_CURRENCY).toFixed(digits)} ${DEFAULT_CURRENCY}\n`,
  );
  return 0;
}
