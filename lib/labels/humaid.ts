/**
 * The HumAID annotation scheme (Alam et al., ICWSM 2021, section 4): eleven humanitarian categories.
 * `value` is the stable machine label (as in the released dataset), `name` the display name shown to
 * annotators, `description` the definition from the paper's annotation guidelines.
 * Pure data: safe to import anywhere (server, client, CLI).
 */
export interface SchemeLabel {
  value: string;
  name: string;
  description: string;
}

export const HUMAID_LABELS: SchemeLabel[] = [
  {
    value: "caution_and_advice",
    name: "Caution and advice",
    description: "Reports of warnings issued or lifted, guidance and tips related to the disaster.",
  },
  {
    value: "displaced_people_and_evacuations",
    name: "Displaced people and evacuations",
    description: "People who have relocated due to the crisis, even for a short time (includes evacuations).",
  },
  {
    value: "infrastructure_and_utility_damage",
    name: "Infrastructure and utility damage",
    description:
      "Reports of any type of damage to infrastructure such as buildings, houses, roads, bridges, power lines, communication poles, or vehicles.",
  },
  {
    value: "injured_or_dead_people",
    name: "Injured or dead people",
    description: "Reports of injured or dead people due to the disaster.",
  },
  {
    value: "missing_or_found_people",
    name: "Missing or found people",
    description: "Reports of missing or found people due to the disaster event.",
  },
  {
    value: "not_humanitarian",
    name: "Not humanitarian",
    description: "The tweet does not convey humanitarian aid-related information.",
  },
  {
    value: "dont_know_cant_judge",
    name: "Don't know or can't judge",
    description: "The tweet is irrelevant or cannot be judged due to non-English content.",
  },
  {
    value: "other_relevant_information",
    name: "Other relevant information",
    description:
      "The tweet does not belong to any of the above categories, but it still contains important information useful for humanitarian aid.",
  },
  {
    value: "requests_or_urgent_needs",
    name: "Requests or urgent needs",
    description:
      "Reports of urgent needs or supplies such as food, water, clothing, money, medical supplies or blood.",
  },
  {
    value: "rescue_volunteering_or_donation_effort",
    name: "Rescue, volunteering, or donation effort",
    description:
      "Reports of any type of rescue, volunteering, or donation efforts such as people being transported to safe places, people being evacuated, people receiving medical aid or food, people in shelter facilities, donation of money, or services.",
  },
  {
    value: "sympathy_and_support",
    name: "Sympathy and support",
    description: "Tweets with prayers, thoughts, and emotional support.",
  },
];

export const HUMAID_LABEL_VALUES: string[] = HUMAID_LABELS.map((l) => l.value);

export function isHumaidLabel(value: string): boolean {
  return HUMAID_LABEL_VALUES.includes(value);
}
