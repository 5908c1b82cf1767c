import { describe, expect, it } from "vitest";
import type { AttentionCheck } from "@/lib/crowd/attention-checks";
import { instructedOption, parseHitForm } from "@/lib/crowd/simulator/html-form";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import type { HitContent } from "./hit-content";
import { renderProlificTaskPage } from "./prolific-page";

const params = { PROLIFIC_PID: "p1", STUDY_ID: "s1", SESSION_ID: "x1" };

describe("the Prolific task page's attention checks", () => {
  it("renders every label's check so that its instruction names the option it asks for (escaped names included)", () => {
    // One check per label of the scheme, each after its own tweet: "Don't know or can't judge" carries apostrophes.
    const checks: AttentionCheck[] = HUMAID_LABELS.map((l, i) => ({ number: i + 1, fieldName: `check-${i + 1}`, after: i + 1, value: l.value, name: l.name, text: `Attention check: for this item, choose “${l.name}”.` }));
    const content: HitContent = {
      title: "Categorise tweets",
      instructions: "Choose the category.",
      labels: HUMAID_LABELS,
      items: HUMAID_LABELS.map((_, i) => ({ position: i + 1, itemId: `it${i}`, fieldName: `item-${i + 1}-it${i}`, text: `tweet ${i + 1} — choose “${HUMAID_LABELS[0]!.name}”` })),
      checks,
    };
    const html = renderProlificTaskPage(content, params, { action: "/prolific/task", posted: { "check-2": HUMAID_LABELS[1]!.value } });
    const groups = parseHitForm(html).groups;
    // Tweet, its check, next tweet…: each check right after the tweet it follows.
    expect(groups.map((g) => g.name)).toEqual(HUMAID_LABELS.flatMap((_, i) => [`item-${i + 1}-it${i}`, `check-${i + 1}`]));
    expect(groups.map((g) => instructedOption(g))).toEqual(HUMAID_LABELS.flatMap((l) => [undefined, l.value]));
    // Tweets keep their numbering among the tweets; a refused submission's check choice is kept.
    expect(html.match(/<legend>Tweet \d+ of 11<\/legend>/g)).toHaveLength(11);
    expect(html).toContain(`<input type="radio" name="check-2" value="${HUMAID_LABELS[1]!.value}" checked>`);
  });
});
