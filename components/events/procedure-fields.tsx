"use client";

import { useState } from "react";
import { Field, SelectInput, TextInput } from "@/components/ui/field";
import type { ProcedureFormValues } from "@/lib/events/procedure-form.validation";
import { EXTENSION_POLICIES, GOLD_RULES, UNRESOLVED_HIT_POLICIES } from "@/lib/procedure/policies";
import { DEFAULT_PROCEDURE_SETTINGS, parseProcedureSettings } from "@/lib/procedure/settings";
import { describeGoldRuleRisk, goldRuleRisk } from "@/lib/procedure/wrong-decisions";

type Values = Partial<Record<keyof ProcedureFormValues, string>>;

/** The gold rule's chance of a wrong decision for the typed gold count and threshold (null while they do not parse). */
function riskText(hitSize: string, goldPerHit: string, assignmentApproval: string, labels: number): string | null {
  try {
    const s = parseProcedureSettings({ hitSize: Number(hitSize), goldPerHit: Number(goldPerHit), assignmentApproval: assignmentApproval.replace(/\s+/g, "") });
    return describeGoldRuleRisk(goldRuleRisk(s, { labels }));
  } catch {
    return null;
  }
}

/**
 * The procedure's rules as form fields (the "New event" form and an event's Settings page), with what the gold rule
 * risks for the numbers typed and what each extension policy and gold rule costs. `paperHints` adds "Paper: …" under
 * each field; `goldRuleEffect` (an event's Settings page) says what the whole-record rule would change in the event.
 */
export function ProcedureFields({
  values,
  defaults,
  errors,
  paperHints,
  labels,
  goldRuleEffect,
}: {
  values: Values;
  defaults: ProcedureFormValues;
  errors: Record<string, string[]>;
  paperHints: boolean;
  labels: number;
  goldRuleEffect?: string;
}) {
  const v = values;
  const d = defaults;
  const e = errors;
  const [gold, setGold] = useState({ hitSize: v.hitSize ?? d.hitSize, goldPerHit: v.goldPerHit ?? d.goldPerHit, assignmentApproval: v.assignmentApproval ?? d.assignmentApproval });
  const risk = riskText(gold.hitSize, gold.goldPerHit, gold.assignmentApproval, labels);
  const paper = (text: string) => (paperHints ? text : undefined);
  const P = DEFAULT_PROCEDURE_SETTINGS;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-3">
        <Field label="Tweets per HIT" name="hitSize" hint={paper(`Paper: ${P.hitSize}`)} errors={e.hitSize}>
          <TextInput name="hitSize" inputMode="numeric" defaultValue={v.hitSize ?? d.hitSize} errors={e.hitSize} onChange={(ev) => setGold({ ...gold, hitSize: ev.target.value })} />
        </Field>
        <Field label="Gold tweets per HIT" name="goldPerHit" hint={paper(`Paper: ${P.goldPerHit} (the rest are unknown)`)} errors={e.goldPerHit}>
          <TextInput name="goldPerHit" inputMode="numeric" defaultValue={v.goldPerHit ?? d.goldPerHit} errors={e.goldPerHit} onChange={(ev) => setGold({ ...gold, goldPerHit: ev.target.value })} />
        </Field>
        <Field label="Approve an assignment at (gold correct)" name="assignmentApproval" hint={paper(`Paper: ${P.assignmentApproval.num}/${P.assignmentApproval.den} correct`)} errors={e.assignmentApproval}>
          <TextInput name="assignmentApproval" defaultValue={v.assignmentApproval ?? d.assignmentApproval} errors={e.assignmentApproval} onChange={(ev) => setGold({ ...gold, assignmentApproval: ev.target.value })} />
        </Field>
        <Field label="Judgments per tweet" name="judgmentsPerTweet" hint={paper(`Paper: ${P.judgmentsPerTweet}`)} errors={e.judgmentsPerTweet}>
          <TextInput name="judgmentsPerTweet" inputMode="numeric" defaultValue={v.judgmentsPerTweet ?? d.judgmentsPerTweet} errors={e.judgmentsPerTweet} />
        </Field>
        <Field label="At most (with extra assignments)" name="maxJudgmentsPerTweet" hint={paper(`Paper: ${P.maxJudgmentsPerTweet}`)} errors={e.maxJudgmentsPerTweet}>
          <TextInput name="maxJudgmentsPerTweet" inputMode="numeric" defaultValue={v.maxJudgmentsPerTweet ?? d.maxJudgmentsPerTweet} errors={e.maxJudgmentsPerTweet} />
        </Field>
        <Field label="Accept a tweet's label at (agreeing share)" name="tweetAcceptance" hint={paper(`Paper: ${P.tweetAcceptance.num}/${P.tweetAcceptance.den} of approved judgments`)} errors={e.tweetAcceptance}>
          <TextInput name="tweetAcceptance" defaultValue={v.tweetAcceptance ?? d.tweetAcceptance} errors={e.tweetAcceptance} />
        </Field>
        <Field label="Approve a HIT at (accepted unknown tweets)" name="hitApproval" hint={paper(`Paper: ${P.hitApproval.num}/${P.hitApproval.den}`)} errors={e.hitApproval}>
          <TextInput name="hitApproval" defaultValue={v.hitApproval ?? d.hitApproval} errors={e.hitApproval} />
        </Field>
        <Field label="Qualification test questions" name="qualificationQuestions" hint={paper(`Paper: ${P.qualification.questions} gold tweets`)} errors={e.qualificationQuestions}>
          <TextInput name="qualificationQuestions" inputMode="numeric" defaultValue={v.qualificationQuestions ?? d.qualificationQuestions} errors={e.qualificationQuestions} />
        </Field>
        <Field label="Pass the test with at least" name="qualificationPass" hint={paper(`Paper: ${P.qualification.passCorrect} correct`)} errors={e.qualificationPass}>
          <TextInput name="qualificationPass" inputMode="numeric" defaultValue={v.qualificationPass ?? d.qualificationPass} errors={e.qualificationPass} />
        </Field>
        <Field label="Below the approval threshold" name="belowThresholdAction" hint={paper("Paper: reject, with the reason")} errors={e.belowThresholdAction}>
          <SelectInput name="belowThresholdAction" defaultValue={v.belowThresholdAction ?? d.belowThresholdAction}>
            <option value="reject">reject with the reason</option>
            <option value="hold">hold for my review</option>
          </SelectInput>
        </Field>
        <Field label="More judgments are requested" name="extensionPolicy" hint={EXTENSION_POLICIES.find((p) => p.value === (v.extensionPolicy ?? d.extensionPolicy))?.cost} errors={e.extensionPolicy}>
          <SelectInput name="extensionPolicy" defaultValue={v.extensionPolicy ?? d.extensionPolicy}>
            {EXTENSION_POLICIES.map((p) => (
              <option key={p.value} value={p.value} title={p.cost}>
                {p.name}
              </option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Accepted labels in HITs that end unresolved" name="unresolvedHitLabels" hint={UNRESOLVED_HIT_POLICIES.find((p) => p.value === (v.unresolvedHitLabels ?? d.unresolvedHitLabels))?.cost} errors={e.unresolvedHitLabels}>
          <SelectInput name="unresolvedHitLabels" defaultValue={v.unresolvedHitLabels ?? d.unresolvedHitLabels}>
            {UNRESOLVED_HIT_POLICIES.map((p) => (
              <option key={p.value} value={p.value} title={p.cost}>
                {p.name}
              </option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Gold rule that decides assignments" name="goldRule" hint={GOLD_RULES.find((r) => r.value === (v.goldRule ?? d.goldRule))?.cost} errors={e.goldRule}>
          <SelectInput name="goldRule" defaultValue={v.goldRule ?? d.goldRule}>
            {GOLD_RULES.map((r) => (
              <option key={r.value} value={r.value} title={r.cost}>
                {r.name}
              </option>
            ))}
          </SelectInput>
        </Field>
        <Field
          label="Whole-record rule: reject when P(accuracy below the gold rule) exceeds (%)"
          name="wholeRecordLevel"
          hint="Uniform prior over each worker's accuracy. Decides when the whole-record rule is chosen; otherwise the event page and the Workers table say what it would change."
          errors={e.wholeRecordLevel}
        >
          <TextInput name="wholeRecordLevel" inputMode="decimal" defaultValue={v.wholeRecordLevel ?? d.wholeRecordLevel} errors={e.wholeRecordLevel} />
        </Field>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name="keepDontKnow" defaultChecked={(v.keepDontKnow ?? d.keepDontKnow) === "on"} className="mt-1" />
          <span>
            Keep &ldquo;don&apos;t know or can&apos;t judge&rdquo; in exports
            <span className="block text-xs text-slate-500">The paper left it out of the released dataset (the default).</span>
          </span>
        </label>
      </div>
      <p className="mt-3 text-xs text-slate-600" data-testid="gold-rule-risk">
        {risk ?? "Type a gold count and an approval fraction to see how often the gold rule decides wrongly."}
      </p>
      {goldRuleEffect ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="gold-rule-effect">
          {goldRuleEffect}
        </p>
      ) : null}
      <ul className="mt-3 space-y-1 text-xs text-slate-500" data-testid="extension-costs">
        {EXTENSION_POLICIES.map((p) => (
          <li key={p.value}>
            <span className="font-medium text-slate-700">{p.name}:</span> {p.cost}
          </li>
        ))}
        {GOLD_RULES.map((r) => (
          <li key={r.value}>
            <span className="font-medium text-slate-700">{r.name}:</span> {r.cost}
          </li>
        ))}
        {UNRESOLVED_HIT_POLICIES.map((p) => (
          <li key={p.value}>
            <span className="font-medium text-slate-700">Unresolved HITs&apos; labels, {p.name.toLowerCase()}:</span> {p.cost}
          </li>
        ))}
      </ul>
    </>
  );
}
