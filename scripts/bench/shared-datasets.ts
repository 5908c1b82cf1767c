import fs from "node:fs";
import path from "node:path";

/**
 * Benchmarks only: the real public tweet datasets, read from ../shared/data beside the repository when it is
 * there (never by the product or the tests, never copied into the repository). Without them a benchmark
 * stops with a message saying which dataset it needs, where to get it and where to put it.
 */
export type SharedTweet = { id: string; text: string; label: string; source: string };

function sharedDataDir(): string {
  return path.resolve(process.cwd(), "../shared/data");
}

const DATASETS = {
  CrisisLexT6: {
    dir: "crisislex/CrisisLexT6",
    what: "CrisisLexT6 (Olteanu et al., ICWSM 2014: 60,082 tweets of 6 crises, on-topic/off-topic)",
    from: "the data/ folder of https://github.com/sajao/CrisisLex (MIT licence), also https://crisislex.org/data-collections.html",
    layout: "<event>/<event>-ontopic_offtopic.csv",
  },
  CrisisLexT26: {
    dir: "crisislex/CrisisLexT26",
    what: "CrisisLexT26 (Olteanu, Vieweg, Castillo, CSCW 2015: 27,933 labelled tweets of 26 crises)",
    from: "the data/ folder of https://github.com/sajao/CrisisLex (MIT licence), also https://crisislex.org/data-collections.html",
    layout: "<event>/<event>-tweets_labeled.csv",
  },
  TweetEval: {
    dir: "tweeteval",
    what: "TweetEval (Barbieri et al., Findings of EMNLP 2020)",
    from: "the datasets/ folder of https://github.com/cardiffnlp/tweeteval",
    layout: "<task>/{train,val,test}_{text,labels}.txt and <task>/mapping.txt (stance: stance/<target>/…, stance/mapping.txt)",
  },
} as const;

export type SharedDataset = keyof typeof DATASETS;

/** The folder of a dataset, or null when it is not there. */
export function sharedDataset(name: SharedDataset): string | null {
  const dir = path.join(sharedDataDir(), DATASETS[name].dir);
  return fs.existsSync(dir) ? dir : null;
}

/** Which dataset, where it was looked for, where to get it and where to put it. */
export function missingDataMessage(name: SharedDataset): string {
  const d = DATASETS[name];
  const dir = path.join(sharedDataDir(), d.dir);
  return (
    `${d.what}.\nIt is not part of the repository and was not found at\n  ${dir}\n` +
    `Get it from ${d.from}\nand put its files there as ${d.layout}\n` +
    `(the folder shared/data sits next to the repository's folder). The tests never need it.\n`
  );
}

/** The folder of a dataset; exits (code 2) with how to get it when it is missing. */
export function requireSharedData(name: SharedDataset): string {
  const dir = sharedDataset(name);
  if (dir) return dir;
  process.stderr.write(`This benchmark needs ${missingDataMessage(name)}`);
  process.exit(2);
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
  return csvFiles(requireSharedData("CrisisLexT6"), "-ontopic_offtopic.csv");
}

export function crisisLexT26Files(): string[] {
  return csvFiles(requireSharedData("CrisisLexT26"), "-tweets_labeled.csv");
}

/** Every TweetEval text file (one tweet per line), with its integer label; ids are made up (file:line). */
export function loadTweetEval(): SharedTweet[] {
  const root = requireSharedData("TweetEval");
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
