import { loadQualificationPanel } from "@/lib/campaign/panels";
import { getDb } from "@/lib/db/client";
import { Badge, Card } from "@/components/ui/card";
import { GoldPoolNotice } from "@/components/events/gold-pool-notice";
import { QualificationForm } from "./qualification-form";
import { labelNamer } from "@/lib/labels/label-names";
import { QUALIFICATION_STATUS } from "@/lib/db/enums";
import { crowdOf } from "@/lib/crowd/registry";

/** The event's qualification test: its state, and the form that creates (or replaces, or reuses) it. */
export async function QualificationPanel({ eventId }: { eventId: string }) {
  const { settings, test, gold, reusable, provider, preview, labels, pool, results, testMode } = await loadQualificationPanel(getDb(), eventId);
  const q = settings.qualification;
  const { grading, recordsTakers } = crowdOf(provider).qualification;
  return (
    <Card
      title="Qualification test"
      description={`${q.questions} gold tweets of this event; a worker passes with at least ${q.passCorrect} correct. ${grading}`}
      actions={test ? <Badge tone={test.status === QUALIFICATION_STATUS.active ? "green" : test.status === QUALIFICATION_STATUS.failed ? "red" : "slate"}>{test.status}</Badge> : <Badge tone="amber">not created</Badge>}
    >
      {testMode ? (
        <p className="mb-3 flex items-center gap-2 text-sm text-amber-900" data-testid="prolific-test-mode">
          <Badge tone="amber">Prolific test mode</Badge> The screening goes out as a Prolific test study that only the workspace&apos;s test participant can take; passing adds them to the group (Settings → Prolific).
        </p>
      ) : null}
      {test?.status === QUALIFICATION_STATUS.active ? (
        <p className="mb-3 text-sm text-slate-600" data-testid="qualification-status">
          Active: qualification type <span className="font-mono text-xs">{test.providerQualTypeId}</span>, {(test.goldTweetIds as string[]).length} questions, HITs require a score ≥ {test.passPercent}.
          {recordsTakers && results ? ` ${results.taken} ${results.taken === 1 ? "participant has" : "participants have"} taken the screening; ${results.passed} passed.` : null}
        </p>
      ) : test?.status === QUALIFICATION_STATUS.failed ? (
        <p className="mb-3 text-sm text-red-700">The last attempt failed: {test.message}</p>
      ) : null}
      <GoldPoolNotice pool={pool} questions={q.questions} goldPerHit={settings.goldPerHit} nameOf={labelNamer(labels)} />
      <QualificationForm
        eventId={eventId}
        goldAvailable={gold}
        questions={q.questions}
        hasActive={test?.status === QUALIFICATION_STATUS.active}
        reusable={reusable}
        preview={preview.map((t) => ({ id: t.id, externalId: t.externalId, text: t.text, answer: labelNamer(labels)(t.goldLabel as string) }))}
      />
    </Card>
  );
}
