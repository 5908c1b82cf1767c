import { PROVIDER_KIND, type ProviderKind } from "@/lib/db/enums";
import { createRng, pick, randomInt, type Rng, seedFrom } from "@/lib/util/random";
import { FILLERS, LABEL_TEMPLATES, LABEL_WEIGHTS } from "./templates";

/**
 * Realistic SYNTHETIC disaster tweets with known true labels, for the demo and for tests: each tweet is a
 * template of its HumAID label with its slots filled from the event (places, the kind of disaster,
 * hashtags) plus optional prefixes, hashtags, mentions and links, so that texts vary like real ones.
 * Deterministic: the same spec and seed give the same tweets (ids, texts, labels and times).
 */
export type DemoEventSpec = {
  slug: string;
  name: string;
  type: string;
  /** Words used for {disaster}, e.g. ["earthquake", "quake"]. */
  disasterWords: string[];
  places: string[];
  hashtags: string[];
  startDate: Date;
  endDate: Date;
  /** Target locations stored with the event. */
  locations: Array<{ name: string; aliases: string[]; bbox?: [number, number, number, number] }>;
  /** The event's crowd (default MTurk). */
  provider?: ProviderKind;
};

export type GeneratedTweet = {
  externalId: string;
  text: string;
  label: string;
  tweetedAt: Date;
  userLocation: string | null;
  lang: "en";
};

export const DEMO_LABELS = Object.keys(LABEL_TEMPLATES);

export function weightedLabel(rng: Rng, weights: Record<string, number>): string {
  const entries = Object.entries(weights);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [label, w] of entries) {
    r -= w;
    if (r < 0) return label;
  }
  return entries[entries.length - 1][0];
}

function fill(template: string, spec: DemoEventSpec, rng: Rng): string {
  return template.replace(/\{(\w+)\}/g, (_, slot: string) => {
    switch (slot) {
      case "place":
        return pick(spec.places, rng);
      case "place2": {
        const others = spec.places.length > 1 ? spec.places : [...spec.places, "the capital"];
        return pick(others, rng);
      }
      case "disaster":
        return pick(spec.disasterWords, rng);
      case "n":
        return String(5 + randomInt(rng, 4000));
      case "n2":
        return String(2 + randomInt(rng, 30));
      case "tag":
        return pick(spec.hashtags, rng);
      case "item":
      case "item2":
        return pick(FILLERS.item, rng);
      default: {
        const list = (FILLERS as Record<string, string[]>)[slot];
        return list ? pick(list, rng) : slot;
      }
    }
  });
}

function shortUrl(rng: Rng): string {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let s = "";
  for (let i = 0; i < 10; i++) s += chars[randomInt(rng, chars.length)];
  return `https://t.co/${s}`;
}

/** One tweet text for a label (deterministic for the rng state). */
export function tweetText(label: string, spec: DemoEventSpec, rng: Rng): string {
  const templates = LABEL_TEMPLATES[label];
  if (!templates) throw new Error(`no templates for label ${label}`);
  let text = fill(pick(templates, rng), spec, rng);
  if (label !== "dont_know_cant_judge" && label !== "not_humanitarian") text = pick(FILLERS.prefix, rng) + text;
  const r = rng();
  if (label !== "not_humanitarian" && r < 0.55) text += ` ${pick(spec.hashtags, rng)}`;
  if (rng() < 0.25) text += ` ${pick(spec.hashtags, rng)}`;
  if (rng() < 0.35) text += ` ${shortUrl(rng)}`;
  if (rng() < 0.1) text = `@${pick(["citydesk", "localnews", "weatherwatch", "reliefnow", "newsroom24"], rng)} ${text}`;
  return text;
}

/** A 19-digit tweet id that grows with time (like Twitter's snowflake ids), unique per (spec, index). */
function tweetId(base: bigint, index: number, rng: Rng): string {
  return (base + BigInt(index) * 4_194_304n + BigInt(randomInt(rng, 4_000_000))).toString();
}

/**
 * `count` tweets for the event. Ids are unique within the event and across demo events with different
 * `idBase`s; tweeted times spread over the event's dates.
 */
export function generateTweets(spec: DemoEventSpec, { count, seed, idBase, weights = LABEL_WEIGHTS }: { count: number; seed: number | string; idBase: bigint; weights?: Record<string, number> }): GeneratedTweet[] {
  const rng = createRng(seedFrom("demo-tweets", spec.slug, seed));
  const span = Math.max(1, spec.endDate.getTime() - spec.startDate.getTime());
  const out: GeneratedTweet[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < count; i++) {
    const label = weightedLabel(rng, weights);
    let text = tweetText(label, spec, rng);
    // Identical texts happen with short templates; a suffix keeps each tweet distinct in the demo.
    for (let tries = 0; seen.has(text) && tries < 20; tries++) text += ` ${pick(tries % 2 ? FILLERS.time : spec.hashtags, rng)}`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({
      externalId: tweetId(idBase, i, rng),
      text,
      label,
      tweetedAt: new Date(spec.startDate.getTime() + Math.floor((i / Math.max(1, count)) * span)),
      userLocation: rng() < 0.6 ? pick(spec.places, rng) : null,
      lang: "en",
    });
  }
  return out;
}

/** Two or three demo events of different kinds (places and hashtags invented or generic). */
export const DEMO_EVENTS: DemoEventSpec[] = [
  {
    slug: "demo_coastal_earthquake_2025",
    name: "Coastal earthquake 2025 (demo)",
    type: "earthquake",
    disasterWords: ["earthquake", "quake", "tremor"],
    places: ["Port Avila", "San Teodoro", "Costa Brava Norte", "Villa Mar", "the old town"],
    hashtags: ["#CoastalQuake", "#PortAvilaQuake", "#earthquake", "#SanTeodoro"],
    startDate: new Date("2025-03-14T00:00:00Z"),
    endDate: new Date("2025-03-28T00:00:00Z"),
    locations: [
      { name: "Port Avila", aliases: ["Pt Avila", "Avila"], bbox: [-71.8, -33.2, -71.2, -32.7] },
      { name: "San Teodoro", aliases: ["S. Teodoro"] },
    ],
  },
  {
    slug: "demo_river_floods_2025",
    name: "River valley floods 2025 (demo)",
    type: "flood",
    disasterWords: ["flood", "floods", "flooding", "flash flood"],
    places: ["Riverton", "Millbrook", "Oak Valley", "Lower Ferris", "Bramley"],
    hashtags: ["#RiverFloods", "#RivertonFlood", "#flood", "#OakValley"],
    startDate: new Date("2025-06-02T00:00:00Z"),
    endDate: new Date("2025-06-20T00:00:00Z"),
    locations: [
      { name: "Riverton", aliases: ["Riverton City"] },
      { name: "Millbrook", aliases: [] },
      { name: "Oak Valley", aliases: ["OakValley"] },
    ],
  },
  {
    slug: "demo_hurricane_lena_2025",
    name: "Hurricane Lena 2025 (demo)",
    type: "hurricane",
    disasterWords: ["hurricane", "storm", "Hurricane Lena", "Lena"],
    places: ["Palm Harbor Bay", "Key Sorrel", "Marlow Beach", "Greenport", "Cape Aurel"],
    hashtags: ["#HurricaneLena", "#Lena", "#hurricane", "#KeySorrel"],
    startDate: new Date("2025-09-08T00:00:00Z"),
    endDate: new Date("2025-09-25T00:00:00Z"),
    locations: [
      { name: "Palm Harbor Bay", aliases: ["Palm Harbor"] },
      { name: "Key Sorrel", aliases: ["Sorrel Key"] },
    ],
  },
];

/** The demo's small Prolific event: its HITs go to the embedded Prolific simulator, whose participants work on Accord's page. */
export const DEMO_PROLIFIC_EVENT: DemoEventSpec = {
  slug: "demo_ridge_wildfire_2025",
  name: "Ridge wildfire 2025 (demo, Prolific)",
  type: "wildfire",
  disasterWords: ["wildfire", "fire", "bushfire", "blaze"],
  places: ["Cedar Ridge", "Pinecrest", "Dry Creek", "Hollow Pines"],
  hashtags: ["#RidgeFire", "#CedarRidgeFire", "#wildfire", "#Pinecrest"],
  startDate: new Date("2025-08-01T00:00:00Z"),
  endDate: new Date("2025-08-15T00:00:00Z"),
  locations: [
    { name: "Cedar Ridge", aliases: ["CedarRidge"] },
    { name: "Pinecrest", aliases: [] },
  ],
  provider: PROVIDER_KIND.prolific,
};
