import "server-only";
import fs from "node:fs";
import path from "node:path";
import { type Db, getDb, prepareDb } from "@/lib/db/client";
import { compareEvents } from "@/lib/analysis/compare";
import { UserError } from "@/lib/errors";
import { agreedLabelsCsv } from "@/lib/export/agreed-labels";
import { auditCsv } from "@/lib/export/audit";
import { compareCsv } from "@/lib/export/compare";
import { manifestSidecarPath, manifestText, unarchivedEventIds } from "@/lib/export/csv-bundle";
import { buildHumaidExport, countsBySplit, humaidZip, SPLITS } from "@/lib/export/humaid";
import { judgmentsCsv } from "@/lib/export/judgments";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const USAGE = `usage: accord export <what> [options]

What Accord has agreed on, for analysis and training (the same files as the dashboard's downloads):

  accord export labels --event SLUG [--include-unresolved] [--raw] [--out FILE]
      Agreed labels CSV: tweet_id,tweet_text,class_label,event,agreement,judgments,votes
      (votes as label:count;…). Unresolved tweets only with --include-unresolved (empty class_label).
      --raw writes the tweet text column exactly as stored (no apostrophe before = + - @; other cells keep theirs): data for code, which a
      spreadsheet could run as a formula; the manifest's csvText says which was used.
  accord export humaid (--event SLUG … | --all) --out FILE.zip [--seed S]
      HumAID format: per event {event}_{train,dev,test}.tsv (70/10/20 by label, labels with < 15 tweets
      left out); with several events also event-type and all-combined sets (cross-split near-duplicates
      removed); README.md with the counts per split and label (Table 6).
  accord export judgments --event SLUG [--out FILE]
      One row per worker × tweet: tweet_id,worker_id,label,event,is_gold,gold_label,correct,counted,…
  accord export audit [--event SLUG] [--out FILE]
      The audit log (all of it, or one event's): at,actor_type,actor,event,entity_type,entity_id,action,reason,details
  accord export compare [--scope agreed|all] [--out FILE]
      Table 3 and Table 2 of every event, one row per event. Table 3 over the agreed tweets (with an accepted
      label, the scope the paper's figures imply; the default) or over all judged tweets.

CSV goes to standard output unless --out is given (UTF-8; cells that could start a spreadsheet formula are
prefixed with an apostrophe). With --out FILE.csv the procedure manifest (settings, gold and qualification-test
hashes, seeds, Accord's version, every setting change with its time and author) is written beside it as
FILE.manifest.json (of the event, or of every unarchived event for audit without --event and compare); the HumAID
zip holds it as manifest.json. The database is DATABASE_URL (default ./data/accord.db).`;

async function eventBySlug(db: Db, slug: string | undefined): Promise<{ id: string; slug: string }> {
  if (!slug) throw new CliError(`--event SLUG is required\n\n${USAGE}`, 2);
  let event: { id: string; slug: string } | null;
  try {
    event = await db.event.findUnique({ where: { slug }, select: { id: true, slug: true } });
  } catch (err) {
    if ((err as { code?: string }).code === "P2021") throw new CliError("the database has no tables yet: run `accord migrate` first");
    throw err;
  }
  if (!event) throw new CliError(`no event with slug "${slug}"`);
  return event;
}

/** Writes text chunks to the file (atomically, through a temporary name) or to stdout. */
async function writeChunks(chunks: AsyncIterable<string>, out: string | undefined, stdout: NodeJS.WritableStream): Promise<number> {
  let bytes = 0;
  if (!out) {
    // A reader that stops early (`| head`) closes the pipe: stop quietly instead of crashing on EPIPE.
    let closed = false;
    let wake: () => void = () => undefined;
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE") throw err;
      closed = true;
      wake();
    };
    stdout.on("error", onError);
    try {
      for await (const c of chunks) {
        if (closed) break;
        bytes += Buffer.byteLength(c);
        if (!stdout.write(c)) {
          await new Promise<void>((r) => {
            wake = r;
            stdout.once("drain", () => r());
          });
        }
      }
    } finally {
      stdout.off("error", onError);
    }
    return bytes;
  }
  const target = path.resolve(out);
  const tmp = `${target}.${process.pid}.tmp`;
  const stream = fs.createWriteStream(tmp);
  try {
    for await (const c of chunks) {
      bytes += Buffer.byteLength(c);
      if (!stream.write(c)) await new Promise<void>((r) => stream.once("drain", () => r()));
    }
    await new Promise<void>((resolve, reject) => {
      stream.once("error", reject);
      stream.end(() => resolve());
    });
    fs.renameSync(tmp, target);
  } catch (err) {
    stream.destroy();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return bytes;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** The command, with the database and output streams injectable for tests. */
export async function runExport(
  argv: string[],
  { db, stdout = process.stdout, stderr = process.stderr }: { db?: Db; stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream } = {},
): Promise<number> {
  const [what, ...rest] = argv;
  if (!what || what === "--help" || what === "-h" || what === "help") {
    stdout.write(USAGE + "\n");
    return what ? 0 : 2;
  }
  const { values, positionals } = parseCliArgs(
    rest,
    {
      event: { type: "string", multiple: true },
      all: { type: "boolean", default: false },
      out: { type: "string", short: "o" },
      seed: { type: "string" },
      "include-unresolved": { type: "boolean", default: false },
      raw: { type: "boolean", default: false },
      scope: { type: "string", default: "agreed" },
      help: { type: "boolean", short: "h", default: false },
    },
    { allowPositionals: false },
  );
  if (values.help) {
    stdout.write(USAGE + "\n");
    return 0;
  }
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`, 2);
  const events = values.event ?? [];
  const single = () => {
    if (events.length > 1) throw new CliError(`"${what}" takes one --event\n\n${USAGE}`, 2);
    return events[0];
  };
  const client = db ?? getDb();
  await prepareDb(client);
  const done = (bytes: number) => {
    if (values.out) stderr.write(`accord export ${what}: wrote ${path.resolve(values.out)} (${bytes.toLocaleString("en-US")} bytes)\n`);
    return 0;
  };
  /** The CSV's manifest beside it (only with --out: standard output carries the CSV alone). */
  const withManifest = async (bytes: number, eventIds: string[] | null) => {
    if (values.out) {
      const target = manifestSidecarPath(path.resolve(values.out));
      fs.writeFileSync(target, await manifestText(client, eventIds ?? (await unarchivedEventIds(client)), what === "labels" && values.raw ? "raw" : "formula-protected"));
      stderr.write(`accord export ${what}: wrote ${target}\n`);
    }
    return done(bytes);
  };
  try {
    switch (what) {
      case "labels": {
        const event = await eventBySlug(client, single());
        return withManifest(await writeChunks(agreedLabelsCsv(client, { eventId: event.id, includeUnresolved: values["include-unresolved"], raw: values.raw }), values.out, stdout), [event.id]);
      }
      case "judgments": {
        const event = await eventBySlug(client, single());
        return withManifest(await writeChunks(judgmentsCsv(client, { eventId: event.id }), values.out, stdout), [event.id]);
      }
      case "audit": {
        const slug = single();
        const event = slug ? await eventBySlug(client, slug) : null;
        return withManifest(await writeChunks(auditCsv(client, { eventId: event?.id ?? null }), values.out, stdout), event ? [event.id] : null);
      }
      case "compare":
        if (values.scope !== "agreed" && values.scope !== "all") throw new CliError(`--scope is agreed or all\n\n${USAGE}`, 2);
        return withManifest(await writeChunks(once(compareCsv(await compareEvents(client, { scope: values.scope }))), values.out, stdout), null);
      case "humaid": {
        if (!values.out) throw new CliError(`humaid writes a zip: give --out FILE.zip\n\n${USAGE}`, 2);
        if (values.all === events.length > 0) throw new CliError(`give --event SLUG (one or more) or --all\n\n${USAGE}`, 2);
        const ids = values.all
          ? (await client.event.findMany({ where: { archived: false }, select: { id: true } })).map((e) => e.id)
          : await Promise.all(events.map(async (s) => (await eventBySlug(client, s)).id));
        if (ids.length === 0) throw new CliError("there is no event to export");
        const exp = await buildHumaidExport(client, { eventIds: ids, seed: values.seed, merged: ids.length > 1 });
        const zip = humaidZip(exp);
        const target = path.resolve(values.out);
        const tmp = `${target}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, zip);
        fs.renameSync(tmp, target);
        for (const set of [...exp.events, ...exp.eventTypes, ...(exp.combined ? [exp.combined] : [])]) {
          const counts = countsBySplit(set);
          const per = SPLITS.map((s) => `${s} ${Object.values(counts).reduce((n, c) => n + c[s], 0)}`).join(", ");
          stderr.write(`  ${set.name}: ${per}\n`);
        }
        return done(zip.length);
      }
      default:
        throw new CliError(`unknown export "${what}" (labels, humaid, judgments, audit, compare)\n\n${USAGE}`, 2);
    }
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
}

export async function run(argv: string[]): Promise<number> {
  try {
    return await runExport(argv);
  } finally {
    await getDb()
      .$disconnect()
      .catch(() => undefined);
  }
}
