import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";

/**
 * Tests and benchmarks only: the real public tweet datasets in ../shared/data (never read by the
 * product, never copied into the repository).
 */
export type SharedTweet = { id: string; text: string; label: string; source: string };

export function sharedDataDir(): string {
  return path.resolve(process.cwd(), "../shared/data");
}

export function sharedDataAvailable(): boolean {
  return fs.existsSync(path.join(sharedDataDir(), "crisislex", "CrisisLexT6"));
}

function csvFiles(dir: string, suffix: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) =>
      fs
        .readdirSync(path.join(dir, d.name))
        .filter((f) => f.endsWith(suffix))
        .map((f) => path.join(dir, d.name, f)),
    );
}

/** CrisisLexT6 (60,082 tweets; ids wrapped in single quotes), in file order, events alphabetically. */
export function crisisLexT6Files(): string[] {
  return csvFiles(path.join(sharedDataDir(), "crisislex", "CrisisLexT6"), "-ontopic_offtopic.csv");
}

export function crisisLexT26Files(): string[] {
  return csvFiles(path.join(sharedDataDir(), "crisislex", "CrisisLexT26"), "-tweets_labeled.csv");
}

export function loadCrisisLexT6(): SharedTweet[] {
  return crisisLexT6Files().flatMap((file) => {
    const rows = parse(fs.readFileSync(file), { from_line: 2 }) as string[][];
    return rows.map((r) => ({ id: r[0].replace(/^'|'$/g, ""), text: r[1], label: r[2], source: path.basename(file) }));
  });
}

export function loadCrisisLexT26(): SharedTweet[] {
  return crisisLexT26Files().flatMap((file) => {
    const rows = parse(fs.readFileSync(file), { from_line: 2 }) as string[][];
    return rows.map((r) => ({ id: r[0], text: r[1], label: r[3], source: path.basename(file) }));
  });
}

/** Every TweetEval text file (one tweet per line), with its integer label; ids are made up (file:line). */
export function loadTweetEval(): SharedTweet[] {
  const root = path.join(sharedDataDir(), "tweeteval");
  const out: SharedTweet[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith("_text.txt")) {
        const labelsFile = full.replace(/_text\.txt$/, "_labels.txt");
        const labels = fs.existsSync(labelsFile) ? fs.readFileSync(labelsFile, "utf8").split("\n") : [];
        const rel = path.relative(root, full);
        fs.readFileSync(full, "utf8")
          .split("\n")
          .forEach((text, i) => {
            if (text.trim()) out.push({ id: `${rel}:${i + 1}`, text: text.trim(), label: (labels[i] ?? "").trim(), source: rel });
          });
      }
    }
  };
  walk(root);
  return out;
}
