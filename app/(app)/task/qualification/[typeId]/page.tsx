import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { createLocalCrowdReader, ensureLocalWorker } from "@/lib/crowd/local/db-store";
import { getDb } from "@/lib/db/client";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { FocusLink } from "../../focus-link";
import { readQualificationTest } from "@/lib/task/hit-content";
import { describeRequirement, formatWhen, openRequirementsFor, qualificationDisplayName, qualificationStatus } from "@/lib/task/task-data";
import { QualificationForm } from "./qualification-form";

export const metadata: Metadata = { title: "Qualification test" };

export default async function QualificationPage({ params }: { params: Promise<{ typeId: string }> }) {
  const user = await requirePageUser("annotate");
  const { typeId } = await params;
  const db = getDb();
  const worker = await ensureLocalWorker(db, user.id);
  const reader = createLocalCrowdReader(db);
  const type = await reader.getQualificationType(typeId);
  if (!type) notFound();
  const test = readQualificationTest(type.testXml);
  const qualification = await reader.getQualification(typeId, worker.workerId);
  const { requirements, hitCount } = await openRequirementsFor(db, typeId);
  const status = qualificationStatus(type, requirements, qualification, hitCount, new Date());
  const needs = requirements.map(describeRequirement).join(" and ") || "a passing score";

  if (!status.canTakeTest) {
    return (
      <>
        <PageHeader title={test.title || qualificationDisplayName(type.name)} />
        <Card>
          <p className="text-sm text-slate-700" role="status">
            {qualification?.lastTestAt ? (
              <>
                You scored <strong>{qualification.value}%</strong> on {formatWhen(qualification.lastTestAt)}.{" "}
                {status.passed ? <Badge tone="green">Passed</Badge> : <Badge tone="red">Not passed</Badge>}
              </>
            ) : status.passed ? (
              <>
                You hold this qualification. <Badge tone="green">Passed</Badge>
              </>
            ) : null}
          </p>
          {!status.passed ? (
            <p className="mt-2 text-sm text-slate-600">
              These HITs need {needs}. {status.retryAt ? `You can retake the test from ${formatWhen(status.retryAt)}.` : "This test cannot be retaken."}
            </p>
          ) : null}
          <FocusLink href="/task" className={`${buttonClass("primary")} mt-4`}>
            Back to your tasks
          </FocusLink>
        </Card>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={test.title || qualificationDisplayName(type.name)}
        description={`${test.instructions} The HITs need ${needs}.`}
      />
      <QualificationForm
        qualificationTypeId={type.id}
        notes={test.notes}
        questions={test.questions.map((q) => ({
          questionId: q.questionId,
          text: q.text,
          displayName: q.displayName ?? null,
          selections: q.selections.map((s) => ({ value: s.selectionId, name: s.text })),
        }))}
      />
    </>
  );
}
