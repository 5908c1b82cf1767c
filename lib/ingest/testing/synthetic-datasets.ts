import fs from "node:fs";
import path from "node:path";
import { DEMO_EVENTS, type DemoEventSpec } from "@/lib/demo/generate";
import { crisisLexT26Csv, crisisLexT6Csv } from "./crisislex-format";
import { type SyntheticTweet, syntheticTweetStream } from "./synthetic-tweets";

/**
 * Tests only: seeded stand-ins for the public crisis collections the tests used to read from outside the
 * repository, at their sizes: six CrisisLexT6-style files of about 10,000 tweets (60,082 in all) and
 * CrisisLexT26-style event files of 1,200 labelled tweets.
 */

/** The 2013 Queensland floods as a spec for generated tweets (places and hashtags of the real event). */
export const QUEENSLAND_FLOODS_2013: DemoEventSpec = {
  slug: "2013_Queensland_floods",
  name: "Queensland floods 2013",
  type: "flood",
  disasterWords: ["floods", "flooding", "flood", "flash flooding", "ex-cyclone Oswald"],
  places: ["Brisbane", "Bundaberg", "Rockhampton", "Ipswich", "Gladstone", "the Lockyer Valley", "Maryborough", "Gympie"],
  hashtags: ["#qldfloods", "#bigwet", "#bundaberg", "#brisbane", "#Oswald"],
  startDate: new Date("2013-01-17T00:00:00Z"),
  endDate: new Date("2013-02-06T00:00:00Z"),
  locations: [{ name: "Queensland", aliases: ["QLD", "Brisbane", "Bundaberg"] }],
};

const T6_ROWS = [10_008, 10_031, 10_012, 9_992, 10_033, 10_006];

/** Six events' tweets (60,082), each event a demo event with its own seed. */
export function syntheticCrisisLexT6(): Array<{ event: string; tweets: SyntheticTweet[] }> {
  return T6_ROWS.map((count, k) => {
    const event = DEMO_EVENTS[k % DEMO_EVENTS.length];
    return { event: `${event.slug}_${k}`, tweets: syntheticTweetStream({ count, seed: 600 + k, event, copies: 0.35, chatter: 0.35 }) };
  });
}

/** Writes the six CrisisLexT6-style files into `dir` (the fourth with CRLF line ends, as in the release). */
export function writeCrisisLexT6(dir: string): Array<{ file: string; tweets: SyntheticTweet[] }> {
  return syntheticCrisisLexT6().map(({ event, tweets }, k) => {
    const file = path.join(dir, `${event}-ontopic_offtopic.csv`);
    fs.writeFileSync(file, crisisLexT6Csv(tweets, { crlf: k === 3 }));
    return { file, tweets };
  });
}

/** 1,200 labelled tweets of one event, as a CrisisLexT26 event file holds. */
export function syntheticCrisisLexT26(event: DemoEventSpec = QUEENSLAND_FLOODS_2013, seed = 26): SyntheticTweet[] {
  return syntheticTweetStream({ count: 1_200, seed, event });
}

export function writeCrisisLexT26(dir: string, event: DemoEventSpec = QUEENSLAND_FLOODS_2013): string {
  const file = path.join(dir, `${event.slug}-tweets_labeled.csv`);
  fs.writeFileSync(file, crisisLexT26Csv(syntheticCrisisLexT26(event)));
  return file;
}
