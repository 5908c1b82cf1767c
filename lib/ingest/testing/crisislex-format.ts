import { createRng, pick, seedFrom } from "@/lib/util/random";
import type { SyntheticTweet } from "./synthetic-tweets";

/**
 * Tests only: synthetic tweets written in the layouts of the CrisisLex releases (Olteanu et al.), so the
 * readers meet the same quirks as with the real files: CrisisLexT26's quoted ids and ", "-separated header,
 * CrisisLexT6's ids in single quotes and one file with CRLF line ends.
 */

/** HumAID label → CrisisLexT26 "Information Type". */
export const CRISISLEX_INFORMATION_TYPE: Record<string, string> = {
  caution_and_advice: "Caution and advice",
  sympathy_and_support: "Sympathy and support",
  rescue_volunteering_or_donation_effort: "Donations and volunteering",
  requests_or_urgent_needs: "Donations and volunteering",
  infrastructure_and_utility_damage: "Infrastructure and utilities",
  other_relevant_information: "Other Useful Information",
  injured_or_dead_people: "Affected individuals",
  missing_or_found_people: "Affected individuals",
  displaced_people_and_evacuations: "Affected individuals",
  not_humanitarian: "Not applicable",
  dont_know_cant_judge: "Not applicable",
};

const SOURCES = ["Media", "Media", "Outsiders", "Eyewitness", "Government", "NGOs", "Business"];

/** `Tweet ID, Tweet Text, Information Source, Information Type, Informativeness` (the releases hold no `"` in texts). */
export function crisisLexT26Csv(tweets: readonly SyntheticTweet[]): string {
  const lines = ["Tweet ID, Tweet Text, Information Source, Information Type, Informativeness"];
  for (const t of tweets) {
    const type = CRISISLEX_INFORMATION_TYPE[t.label];
    const rng = createRng(seedFrom("crisislex-t26", t.id));
    const columns = !type
      ? "Not labeled,Not labeled,Not related"
      : `${pick(SOURCES, rng)},${type},${type === "Not applicable" ? "Not applicable" : rng() < 0.75 ? "Related and informative" : "Related - but not informative"}`;
    lines.push(`"${t.id}","${t.text.replace(/"/g, "")}",${columns}`);
  }
  return lines.join("\n") + "\n";
}

/** `tweet id, tweet, label` with ids in single quotes and on-topic/off-topic labels. */
export function crisisLexT6Csv(tweets: readonly SyntheticTweet[], { crlf = false } = {}): string {
  const lines = ["tweet id, tweet, label"];
  for (const t of tweets) lines.push(`'${t.id}',"${t.text.replace(/"/g, '""')}",${t.label === "off-topic" ? "off-topic" : "on-topic"}`);
  const eol = crlf ? "\r\n" : "\n";
  return lines.join(eol) + eol;
}
