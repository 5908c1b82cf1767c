import { describeRules } from "@/lib/procedure/describe-rules";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { describeGoldRuleComparison } from "@/lib/procedure/whole-record";
import { describeGoldRuleRisk } from "@/lib/procedure/wrong-decisions";
import type { EventGoldRuleRisk } from "@/lib/gold/gold-rule-risk";
import { Card } from "@/components/ui/card";

const formatLevel = (level: number) => `${Math.round(level * 1000) / 10}%`;

/** The event's rules in words (from its settings), and what the gold rule risks. */
export function RulesCard({ settings, gold }: { settings: ProcedureSettings; gold: EventGoldRuleRisk }) {
  const rules = describeRules(settings);
  const w = gold.wholeRecord;
  return (
    <Card title="Rules of this event" description="From the event's settings." className="mt-6">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700" data-testid="event-rules">
        {rules.lines.map((l) => (
          <li key={l.key}>{l.text}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-slate-700" data-testid="gold-rule-risk">
        {describeGoldRuleRisk(gold.risk)}
      </p>
      <p className="mt-1 text-xs text-slate-500" data-testid="whole-record-rule">
        A rule over each worker&apos;s whole gold record (reject when the posterior probability, uniform prior, that their accuracy is below the
        threshold exceeds {formatLevel(settings.wholeRecordLevel)}) would have spared {w.workersSpared} of the {w.workers} workers with decided assignments ({w.rejectionsKept} of {w.rejections} rejections) and
        rejected {w.workersNewlyRejected} worker{w.workersNewlyRejected === 1 ? "" : "s"} the per-HIT rule approved.
      </p>
      <p className="mt-1 text-xs text-slate-500" data-testid="gold-rule-comparison">
        {describeGoldRuleComparison(gold.comparison)}
      </p>
    </Card>
  );
}
