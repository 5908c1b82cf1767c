import fs from "node:fs";
import path from "node:path";
import { createRng, pick, type Rng } from "@/lib/util/random";

/**
 * Tests only: a stance task in TweetEval's layout (Barbieri et al. 2020: `<split>_text.txt`, `<split>_labels.txt`,
 * `mapping.txt` one folder up), with generated tweets for and against a city's congestion charge (no
 * third-party text). Cues overlap between classes and some tweets carry none, so the task is not trivial.
 */
const MAPPING = ["none", "against", "favor"] as const;

const TOPIC = ["the congestion charge", "the new city toll", "the charge", "#CongestionCharge", "the city centre fee", "the toll zone"];
const CUES: Record<(typeof MAPPING)[number], string[]> = {
  favor: ["finally cleaner air thanks to", "so glad we have", "long overdue:", "buses are faster since", "fully support", "kids can walk to school safely with", "quieter streets because of", "#YesToTheCharge"],
  against: ["another tax disguised as", "what a rip off", "small shops are dying because of", "scrap", "cash grab:", "cannot afford", "vote them out over", "#ScrapTheCharge", "unfair on workers"],
  none: ["meeting at city hall tonight about", "what time does", "anyone know the hours of", "news report on", "the council will discuss", "read an article about"],
};
const FILLER = ["today", "this morning", "again", "honestly", "lol", "@user", "@user @user", "in town", "downtown", "#traffic", "#city"];
const CHATTER = ["watching the game tonight", "coffee first then work", "new album is so good", "my cat ignores me again", "cannot wait for the weekend", "rainy day at home"];

function stanceTweet(label: (typeof MAPPING)[number], rng: Rng): string {
  if (label === "none" && rng() < 0.4) return `${pick(CHATTER, rng)} ${pick(FILLER, rng)}`;
  const own = rng() < 0.85 ? pick(CUES[label], rng) : "";
  const words = [own, pick(TOPIC, rng), pick(FILLER, rng)];
  // Borrowed wording from another class (sarcasm, quoting the other side).
  if (rng() < 0.25) words.push(pick(CUES[pick(MAPPING, rng)], rng));
  return words.filter(Boolean).join(" ");
}

/** `n` tweets, shares roughly as in TweetEval's stance targets (against most common). */
export function syntheticStance(n: number, seed: number): { texts: string[]; labels: number[] } {
  const rng = createRng(seed);
  const texts: string[] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng();
    const label = r < 0.5 ? 1 : r < 0.75 ? 0 : 2;
    texts.push(stanceTweet(MAPPING[label], rng));
    labels.push(label);
  }
  return { texts, labels };
}

/** Writes `stance/mapping.txt` and `stance/<target>/{train,val,test}_{text,labels}.txt`; returns the target folder. */
export function writeTweetEvalStance(root: string, sizes = { train: 587, val: 66, test: 280 }, target = "congestion"): string {
  const dir = path.join(root, "stance", target);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, "stance", "mapping.txt"), MAPPING.map((name, id) => `${id}\t${name}`).join("\n"));
  Object.entries(sizes).forEach(([split, n], k) => {
    const { texts, labels } = syntheticStance(n, 70 + k);
    fs.writeFileSync(path.join(dir, `${split}_text.txt`), texts.join(" \n") + " \n");
    fs.writeFileSync(path.join(dir, `${split}_labels.txt`), labels.join("\n") + "\n");
  });
  return dir;
}
