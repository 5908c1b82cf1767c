import { loadPublishPanel } from "@/lib/campaign/panels";
import { describeRules } from "@/lib/procedure/describe-rules";
import { readEventSettings } from "@/lib/events/event-settings";
import { getDb } from "@/lib/db/client";
import { Badge, Card } from "@/components/ui/card";
import { prelaunchCheck } from "@/lib/campaign/prelaunch-check";
import { exclusionSummary } from "@/lib/events/exclusions";
import { PrelaunchCheck } from "./prelaunch-check";
import { PublishForm } from "./publish-form";
import { RefreshWhile } from "./refresh-while";
import { formatDateTime, formatInt, formatMoney } from "@/lib/text/format";
import { getProvider } from "@/lib/campaign/providers";
import { publishDefaultsFor } from "@/lib/campaign/publish-defaults";
import { JOB_STATE } from "@/lib/db/enums";

const JOB_WORDS: Record<string, string> = { queued: "waiting to start", running: "publishing", succeeded: "done", failed: "failed", cancelled: "cancelled" };

/** Estimate and publish a batch of HITs, with the progress of the latest publish job. */
export async function PublishPanel({ eventId }: { eventId: string }) {
  const db = getDb();
  const { crowd, eventCrowd, event, batch, pending, job } = await loadPublishPanel(db, eventId);
  const defaults = await publishDefaultsFor(await getProvider(db, event.provider).catch(() => ({})), crowd.defaults);
  const [check, excluded] = await Promise.all([prelaunchCheck(db, eventId), exclusionSummary(db, eventId)]);
  const running = job?.state === JOB_STATE.queued || job?.state === JOB_STATE.running;
  const mode = eventCrowd.label;
  return (
    <Card title="Publish HITs" description={`Each HIT: ${describeRules(readEventSettings(event)).short.hitComposition} tweets. ${formatInt(pending)} unknown tweets are waiting. Provider: ${mode}. Amounts in ${eventCrowd.currency}.`} actions={<Badge tone={eventCrowd.production ? "red" : "blue"}>{mode}</Badge>}>
      {eventCrowd.testMode ? (
        <p className="mb-4 flex items-center gap-2 text-sm text-amber-900" data-testid="prolific-test-mode">
          <Badge tone="amber">Prolific test mode</Badge> HITs and the qualification&apos;s screening go out as Prolific test studies that only the workspace&apos;s test participant can take (Settings → Prolific).
        </p>
      ) : null}
      {job ? (
        <div className="mb-4" data-testid="publish-progress" role="status">
          <div className="flex justify-between gap-2 text-xs text-slate-600">
            <span>
              Latest batch of this event ({batch ? formatDateTime(batch.createdAt) : "–"}): {formatInt(batch?.hitCount)} HITs — {JOB_WORDS[job.state] ?? job.state}
              {job.message && job.message !== job.error ? ` · ${job.message}` : ""}
            </span>
            <span className="tabular whitespace-nowrap">
              {formatInt(job.progressDone)} of {formatInt(job.progressTotal ?? batch?.hitCount)} published
            </span>
          </div>
          <div className="mt-1 h-2 overflow-hidden rounded bg-slate-100">
            <div className="h-2 bg-accent-500 transition-all" style={{ width: `${Math.round((100 * job.progressDone) / Math.max(1, job.progressTotal ?? batch?.hitCount ?? 1))}%` }} />
          </div>
          {job.error ? <p className="mt-1 text-xs text-red-700">{job.error}</p> : null}
        </div>
      ) : null}
      <RefreshWhile active={running} />
      <PrelaunchCheck eventId={eventId} crowdName={eventCrowd.label} statements={check.statements} refusal={check.refusal} settings={check.settings} configurable={check.configurable} costSoFar={excluded.count ? `So far in this event, ${formatInt(excluded.count)} submission${excluded.count === 1 ? "" : "s"} below the gold rule were paid and excluded: ${formatMoney(excluded.paidMinor, eventCrowd.currency)} in rewards and fees.` : null} />
      {defaults.rewardRaisedToFloor ? (
        <p className="mb-3 text-xs text-slate-600" data-testid="reward-floor-default">
          The reward starts at {formatMoney(defaults.rewardCents, eventCrowd.currency)}, the least the crowd&apos;s minimum hourly pay allows for {defaults.durationSeconds / 60} minutes per assignment.
        </p>
      ) : null}
      {/* The form stays mounted across batches: it keeps the values entered; after a publish it asks for a new estimate. */}
      <PublishForm eventId={eventId} defaults={defaults} production={eventCrowd.production} currency={eventCrowd.currency} />
    </Card>
  );
}
