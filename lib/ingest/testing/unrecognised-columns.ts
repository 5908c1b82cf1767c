/**
 * Tests only: a tweet file shaped like a CrowdFlower / Figure Eight job's source data, whose columns Accord does not
 * recognise by name (`_unit_id`, `tweet_no`, `tweet`, `choose_one_category`, `tweet_created`, `tweet_location`):
 * synthetic rows (no real tweets or workers), a BOM, CRLF line ends and a quoted multi-line text; `malformed` adds
 * a row with a missing field.
 */
export const CF_TWEET_HEADER = ["_unit_id", "_golden", "tweet_no", "tweet", "choose_one_category", "tweet_created", "tweet_location"];

const TEXTS = [
  "Bridge on route nine closed, water over the road.\nAvoid the area tonight",
  "Volunteers needed at the high school shelter, bring blankets",
  "Power lines down across Main Street after the storm surge",
  "Praying for everyone on the Jersey shore tonight, stay strong",
  "Evacuation buses leave the library at noon for anyone without a car",
  "Subway tunnels flooded downtown; transit authority says service is suspended",
  "Red Cross asking for blood donations after hurricane damage",
  "Boardwalk destroyed and several piers washed into the ocean",
  "Stay indoors and keep away from the beach until the wind drops",
  "Thoughts with the families who lost their homes in the fire",
  "Hospital generators failed, patients moved to another building",
  "Food bank drive this weekend at the community center, canned goods welcome",
];

export function crowdflowerTweets({ rows = 4, first = 1, malformed = false }: { rows?: number; first?: number; malformed?: boolean } = {}): string {
  const labels = ["caution_and_advice", "infrastructure_and_utility_damage", "rescue_volunteering_or_donation_effort", "sympathy_and_support"];
  const lines = [CF_TWEET_HEADER.join(",")];
  for (let i = first; i < first + rows; i++) {
    const text = `"${TEXTS[(i - 1) % TEXTS.length]}"`;
    lines.push([String(70_000 + i), "false", `26300000000000${String(i).padStart(4, "0")}`, text, labels[i % labels.length], `2012-10-30 0${i % 10}:15:00`, `"Hoboken, NJ"`].join(","));
  }
  if (malformed) lines.push([String(79_999), "false", "263000000000009999", `"A row with a field missing"`, "caution_and_advice"].join(","));
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
