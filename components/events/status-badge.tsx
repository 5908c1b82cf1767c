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

/** A status word in its colour (green done/good, red refused/failed, amber waiting on a person, blue in progress). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <Badge tone={TONES[status] ?? "slate"}>{label ?? status.replace(/_/g, " ")}</Badge>;
}
