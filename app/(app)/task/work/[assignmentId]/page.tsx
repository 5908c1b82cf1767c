import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { createLocalCrowdReader, ensureLocalWorker } from "@/lib/crowd/local/db-store";
import { getDb } from "@/lib/db/client";
import { buttonClass } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { FocusLink } from "../../focus-link";
import { readHitContent } from "@/lib/task/hit-content";
import { eventNameOfHit, formatWhen } from "@/lib/task/task-data";
import { HitWorkbench } from "./hit-workbench";

export const metadata: Metadata = { title: "Work on a HIT" };

const CLOSED: Record<string, string> = {
  Submitted: "You submitted this HIT. It is waiting for review.",
  Approved: "You submitted this HIT and it was approved.",
  Rejected: "You submitted this HIT and it was rejected.",
  Returned: "You returned this HIT.",
  Abandoned: "The time for this HIT ran out before it was submitted.",
};

export default async function WorkPage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser("annotate");
  const { assignmentId } = await params;
  const db = getDb();
  const worker = await ensureLocalWorker(db, user.id);
  const reader = createLocalCrowdReader(db);
  const assignment = await reader.getAssignment(assignmentId);
  if (!assignment || assignment.workerId !== worker.workerId) notFound();
  const hit = await reader.getHit(assignment.hitId);
  if (!hit) notFound();

  const now = new Date();
  const status = assignment.status === "Accepted" && assignment.deadline <= now ? "Abandoned" : assignment.status;
  if (status !== "Accepted") {
    return (
      <>
        <PageHeader title={hit.title} />
        <Card>
          <p className="text-sm text-slate-700" role="status">
            {CLOSED[status]}
          </p>
          {assignment.feedback ? <p className="mt-2 text-sm text-slate-600">Feedback: {assignment.feedback}</p> : null}
          <FocusLink href="/task" className={`${buttonClass("primary")} mt-4`}>
            Back to your tasks
          </FocusLink>
        </Card>
      </>
    );
  }

  const content = readHitContent(hit.questionXml);
  const eventName = await eventNameOfHit(db, hit.accordHitId);
  return (
    <HitWorkbench
      assignmentId={assignment.id}
      title={content.title || hit.title}
      instructions={content.instructions}
      eventName={eventName}
      due={formatWhen(assignment.deadline)}
      labels={content.labels}
      items={content.items.map((i) => ({ position: i.position, fieldName: i.fieldName, text: i.text }))}
    />
  );
}
