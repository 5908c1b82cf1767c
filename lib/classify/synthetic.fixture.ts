import { createRng, pick, type Rng } from "@/lib/util/random";

/**
 * Generated tweets for the classifier tests (no third-party text): each class has its own words,
 * all classes share filler words, and some tweets borrow a word from another class.
 */
export const VOCAB: Record<string, string[]> = {
  infrastructure_and_utility_damage: ["bridge", "road", "power", "outage", "collapsed", "flooded", "highway", "electricity"],
  rescue_volunteering_or_donation_effort: ["donate", "volunteers", "relief", "fund", "supplies", "shelter", "rescue", "blood"],
  sympathy_and_support: ["prayers", "thoughts", "heart", "condolences", "praying", "love", "strength", "hope"],
  not_humanitarian: ["game", "movie", "music", "pizza", "concert", "weekend", "album", "party"],
};

const FILLER = ["the", "storm", "today", "city", "people", "news", "update", "after", "here", "more", "photo", "via"];

export function syntheticTweets(n: number, seed: number, labels = Object.keys(VOCAB)) {
  const rng: Rng = createRng(seed);
  const texts: string[] = [];
  const gold: string[] = [];
  for (let i = 0; i < n; i++) {
    const label = labels[i % labels.length];
    const words = [pick(VOCAB[label], rng), pick(VOCAB[label], rng), pick(FILLER, rng), pick(FILLER, rng)];
    if (rng() < 0.3) words.push(pick(VOCAB[pick(labels, rng)], rng));
    if (rng() < 0.3) words.unshift("@someone");
    if (rng() < 0.3) words.push(`https://t.co/${Math.floor(rng() * 1e6)}`);
    if (rng() < 0.3) words.push(`#${pick(FILLER, rng)}`);
    texts.push(words.join(" "));
    gold.push(label);
  }
  return { texts, labels: gold };
}
