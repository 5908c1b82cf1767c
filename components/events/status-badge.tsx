import { Badge } from "@/components/ui/card";

type Tone = "slate" | "green" | "red" | "amber" | "blue";

const TONES: Record<string, Tone> = {
  approved: "green",
  approve: "green",
  accepted: "green",
  completed: "green",
  succeeded: "green",
  active: "green",
  rejected: "red",
  reject: "red",
  failed: "red",
  unresolved: "red",
  deleted: "red",
  held: "amber",
  warning: "amber",
  needs_mapping: "amber",
  hold: "amber",
  extended: "amber",
  reviewing: "amber",
  running: "blue",
  published: "blue",
  in_hit: "blue",
  submitted: "blue",
  queued: "slate",
  pending: "slate",
  judged: "blue",
  expired: "slate",
  cancelled: "slate",
  retired: "slate",
  draft: "slate",
};

/** What each status word means, shown as the badge's tooltip and in the legends (no procedure numbers: those come from settings). */
export const STATUS_MEANINGS: Record<string, string> = {
  draft: "Created in Accord, not yet on the crowd provider.",
  published: "On the crowd provider and open to workers.",
  reviewing: "Every assignment is in; Accord is deciding.",
  extended: "More assignments were added because too few tweets have an agreed label yet.",
  approved: "Approved by the procedure's rule (see the why line of the HIT or assignment).",
  approve: "Approved by the procedure's rule.",
  unresolved: "Ended without an agreed label (tweet) or without enough agreed tweets (HIT), and no more assignments can change that.",
  expired: "Its lifetime on the provider ran out.",
  deleted: "Removed from the provider.",
  submitted: "Submitted by the worker; waiting for Accord's decision.",
  rejected: "Failed the gold check: the worker is not paid and sees the reason.",
  reject: "Rejected by the gold check.",
  held: "Below the gold threshold, held for a researcher to decide by hand.",
  hold: "Held for a researcher to decide.",
  pending: "Waiting: not in a HIT yet.",
  in_hit: "In a published HIT, waiting for judgments.",
  judged: "Has judgments, no agreed label yet.",
  accepted: "Has an agreed label.",
  retired: "A gold tweet taken out of new HITs.",
  queued: "Waiting for a background worker.",
  running: "Running in the background.",
  succeeded: "Finished.",
  failed: "Stopped with an error.",
  cancelled: "Cancelled.",
  active: "In use.",
  completed: "Finished.",
  warning: "Finished with a warning: nothing, or less than half of the rows read, was stored.",
  needs_mapping: "Waiting for the file's labels to be mapped to the event's scheme.",
};

/** A status word in its colour (green done/good, red refused/failed, amber waiting on a person, blue in progress), its meaning as a tooltip. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge tone={TONES[status] ?? "slate"} title={STATUS_MEANINGS[status]}>
      {label ?? status.replace(/_/g, " ")}
    </Badge>
  );
}

/** The meanings of the given statuses, as a compact legend under a table or a list. */
export function StatusLegend({ statuses, testId }: { statuses: string[]; testId?: string }) {
  const known = statuses.filter((s) => STATUS_MEANINGS[s]);
  if (!known.length) return null;
  return (
    <details className="mt-3 text-xs text-slate-600" data-testid={testId}>
      <summary className="cursor-pointer">What the statuses mean</summary>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {known.map((s) => (
          <div key={s} className="contents">
            <dt>
              <StatusBadge status={s} />
            </dt>
            <dd>{STATUS_MEANINGS[s]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
