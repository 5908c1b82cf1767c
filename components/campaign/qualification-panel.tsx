import { getDb } from "@/lib/db/client";
import { parseProcedureSettings } from "@/lib/procedure/settings";
import { Badge, Card } from "@/components/ui/card";
import { QualificationForm } from "./qualification-form";

/** The event's qualification test: its state, and the form that creates (or replaces, or reuses) it. */
export async function QualificationPanel({ eventId }: { eventId: string }) {
  const db = getDb();
  const [event, test, gold, reusable] = await Promise.all([
    db.event.findUniqueOrThrow({ where: { id: eventId }, select: { settings: true, schemeId: true, provider: true } }),
    db.qualificationTest.findFirst({ where: { eventId }, orderBy: { createdAt: "desc" }, select: { id: true, status: true, providerQualTypeId: true, passPercent: true, goldTweetIds: true, message: true, createdAt: true, _count: { select: { results: true } } } }),
    db.tweet.count({ where: { eventId, role: "gold", retiredAt: null } }),
    db.qualificationTest.findMany({ where: { status: "active", eventId: { not: eventId } }, select: { id: true, name: true, schemeId: true, provider: true }, take: 50 }),
  ]);
  const settings = parseProcedureSettings(event.settings);
  const q = settings.qualification;
  return (
    <Card
      title="Qualification test"
      description={`${q.questions} gold tweets; a worker passes with at least ${q.passCorrect} correct. MTurk grades it with the answer key; HITs require the score.`}
      actions={test ? <Badge tone={test.status === "active" ? "green" : test.status === "failed" ? "red" : "slate"}>{test.status}</Badge> : <Badge tone="amber">not created</Badge>}
    >
      {test?.status === "active" ? (
        <p className="mb-3 text-sm text-slate-600" data-testid="qualification-status">
          Active: qualification type <span className="font-mono text-xs">{test.providerQualTypeId}</span>, {(test.goldTweetIds as string[]).length} questions, HITs require a score ≥ {test.passPercent}.
        </p>
      ) : test?.status === "failed" ? (
        <p className="mb-3 text-sm text-red-700">The last attempt failed: {test.message}</p>
      ) : null}
      <QualificationForm
        eventId={eventId}
        goldAvailable={gold}
        questions={q.questions}
        hasActive={test?.status === "active"}
        reusable={reusable.filter((r) => r.schemeId === event.schemeId && r.provider === event.provider).map((r) => ({ id: r.id, name: r.name }))}
      />
    </Card>
  );
}
