import { DEMO_EVENTS, type DemoEventSpec, tweetText, weightedLabel } from "@/lib/demo/generate";
import { LABEL_WEIGHTS } from "@/lib/demo/templates";
import { createRng, pick, randomInt, type Rng, seedFrom } from "@/lib/util/random";
import { perturb } from "./perturb";
import { FOREIGN_SENTENCES, snowflakeId, zipfChatter } from "./synthetic-text";

/**
 * Tests only: a seeded stream of tweet-like texts standing in for real crisis collections (no third-party
 * text): on-topic tweets from the demo templates, off-topic chatter with a long-tailed vocabulary, some
 * tweets in other languages, emoji-only tweets, and many copies of earlier tweets as they spread (retweets,
 * other links, small edits, quotes with a comment), so near-duplicates come at every similarity.
 */
export type SyntheticTweet = {
  id: string;
  text: string;
  /** The HumAID label of an on-topic tweet; "off-topic" for chatter and tweets in other languages. */
  label: string;
  lang: string;
  /** Index of the earlier tweet this one copies, or -1. */
  copyOf: number;
};

export type SyntheticStreamOptions = {
  count: number;
  seed: number;
  /** The event the on-topic tweets are about (default: the demo floods). */
  event?: DemoEventSpec;
  /** Tweet times (and so snowflake ids) spread over [start, end]; default the event's dates. */
  start?: Date;
  end?: Date;
  /** Shares of each kind of tweet (the rest is on-topic). */
  copies?: number;
  chatter?: number;
  foreign?: number;
  emojiOnly?: number;
};

const USERS = ["localnews", "citydesk", "weatherwatch", "reliefnow", "newsroom24", "jdoe_77", "mariaL", "stormchaser", "abc_news", "rescue_ops"];
const COMMENTS = ["this", "wow", "so sad", "please share", "stay safe", "omg", "important", "read this", "true", "via"];

function linkOf(rng: Rng): string {
  return `http://t.co/${randomInt(rng, 36 ** 8).toString(36)}`;
}

/** A copy of an earlier tweet as it happens on Twitter: the kind decides how similar it stays. */
function copyText(text: string, rng: Rng): string {
  switch (randomInt(rng, 6)) {
    case 0:
    case 1:
      return `RT @${pick(USERS, rng)}: ${text}`;
    case 2:
      // The same tweet with another link (shorteners give each share its own).
      return /https?:\/\/t\.co\/\w+/.test(text) ? text.replace(/https?:\/\/t\.co\/\w+/, linkOf(rng)) : `${text} ${linkOf(rng)}`;
    case 3:
      return `${pick(COMMENTS, rng)} ${text}`;
    default:
      return perturb(text, rng);
  }
}

export function syntheticTweetStream(options: SyntheticStreamOptions): SyntheticTweet[] {
  const event = options.event ?? DEMO_EVENTS[1];
  const rng = createRng(seedFrom("synthetic-tweets", options.seed, event.slug));
  const start = (options.start ?? event.startDate).getTime();
  const end = (options.end ?? event.endDate).getTime();
  const shares = { copies: options.copies ?? 0.3, chatter: options.chatter ?? 0.2, foreign: options.foreign ?? 0.04, emojiOnly: options.emojiOnly ?? 0.005 };
  const out: SyntheticTweet[] = [];
  const ids = new Set<string>();
  while (out.length < options.count) {
    const r = rng();
    let text: string;
    let label = "off-topic";
    let lang = "en";
    let copyOf = -1;
    if (out.length > 0 && r < shares.copies) {
      // Popular tweets are copied more: favour recent ones and the copies' own sources.
      copyOf = out.length - 1 - Math.min(out.length - 1, Math.floor(-Math.log(1 - rng()) * 40));
      const source = out[copyOf];
      if (source.copyOf >= 0 && rng() < 0.5) copyOf = source.copyOf;
      text = copyText(out[copyOf].text, rng);
      ({ label, lang } = out[copyOf]);
    } else if (r < shares.copies + shares.chatter) {
      text = zipfChatter(rng);
    } else if (r < shares.copies + shares.chatter + shares.foreign) {
      const language = pick(Object.keys(FOREIGN_SENTENCES), rng);
      text = pick(FOREIGN_SENTENCES[language], rng).replace("{place}", pick(event.places, rng));
      if (rng() < 0.3) text += ` ${pick(event.hashtags, rng)}`;
      lang = language;
    } else if (r < shares.copies + shares.chatter + shares.foreign + shares.emojiOnly) {
      text = `${pick(["🙏🙏", "😢", "💔💔💔", "😱"], rng)} ${rng() < 0.5 ? linkOf(rng) : ""}`.trim();
    } else {
      label = weightedLabel(rng, LABEL_WEIGHTS);
      text = tweetText(label, event, rng);
    }
    const at = start + Math.floor(((out.length + rng()) / options.count) * (end - start));
    let id = snowflakeId(at, rng);
    while (ids.has(id)) id = snowflakeId(at, rng);
    ids.add(id);
    out.push({ id, text, label, lang, copyOf });
  }
  return out;
}
