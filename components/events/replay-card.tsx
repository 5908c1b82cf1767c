import { Card } from "@/components/ui/card";
import { formatDateTime, formatInt } from "@/lib/text/format";
import type { ReplayStatus } from "@/lib/analysis/replay-job";
import { describeRules } from "@/lib/procedure/describe-rules";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { ReplayRunner } from "./replay-runner";
import { ReplayTable } from "./replay-table";

/** The rules a stored replay ran under, in short words. */
function rulesText(settings: ProcedureSettings): string {
  const s = describeRules(settings).short;
  return `gold rule ${s.goldRule}, label rule ${s.tweetAcceptance}, HIT rule ${s.hitApproval}, ${s.judgments} judgments per tweet`;
}

/**
 * The Agreement tab's replay: a button that starts the recorded "replay" job, its progress while it runs, and the
 * newest result with when it ran, under which rules, and whether the event's rules changed since (then it is stale).
 */
export function ReplayCard({ eventId, status, currency }: { eventId: string; status: ReplayStatus; currency: string }) {
  const { last, active, failure } = status;
  const rules = last?.rules ? rulesText(last.rules) : null;
  return (
    <Card
      title="Replay under other thresholds"
      description="The recorded work of the decided HITs replayed under other rules, without calling any provider: which assignments the gold rule approves, which labels the label rule accepts, which HITs are approved or extended with the next recorded assignments (out of data when more were needed than recorded). κ and α over the accepted tweets. The event's own thresholds first, then a grid around them (gold rule ± 1 correct answer, three label rules, HIT rule ± 2 accepted tweets). It reads every decided assignment, so it runs as a job."
      className="mt-6"
    >
      <div className="mb-3">
        <ReplayRunner eventId={eventId} active={active} />
      </div>
      {failure ? (
        <p className="mb-3 text-sm text-red-700" data-testid="replay-failure">
          {failure}
        </p>
      ) : null}
      {last ? (
        <div className="space-y-2" data-testid="replay-result" data-stale={last.ruleChanges.length ? "1" : "0"}>
          <p className="text-xs text-slate-500" data-testid="replay-when">
            Replayed {formatDateTime(last.finishedAt)} over {formatInt(last.hits)} decided HITs{rules ? `, under the rules of then: ${rules}` : ""}.
          </p>
          {last.ruleChanges.length ? (
            <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900" data-testid="replay-stale">
              Stale: the event&apos;s rules changed since this replay ({last.ruleChanges.join(", ")}); replay again to see the grid under the current rules.
            </p>
          ) : null}
          <ReplayTable rows={last.outcomes} currency={currency} />
        </div>
      ) : active ? null : (
        <p className="text-sm text-slate-500" data-testid="replay-none">
          No replay yet.
        </p>
      )}
    </Card>
  );
}
