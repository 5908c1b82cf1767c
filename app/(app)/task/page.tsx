import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/current-user";
import { ensureLocalWorker } from "@/lib/crowd/local/db-store";
import { getDb } from "@/lib/db/client";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/field";
import { AcceptHitButton } from "./task-forms";
import { describeRequirement, formatDuration, formatWhen, loadTaskOverview, qualificationDisplayName, type QualificationStatus } from "@/lib/task/task-data";
import { PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

export const metadata: Metadata = { title: "Task" };

const DONE_MESSAGES: Record<string, string> = {
  submitted: "Thank you — your labels were submitted. The research team reviews them against the gold tweets.",
  returned: "You returned the HIT; its slot is free for someone else.",
};

function QualificationCard({ s }: { s: QualificationStatus }) {
  const needs = s.requirements.map(describeRequirement).join(" and ") || "to pass the test";
  const score = s.qualification?.value;
  return (
    <Card
      title={`Qualification test: ${qualificationDisplayName(s.type.name)}`}
      description={`${s.hitCount} open ${s.hitCount === 1 ? "HIT needs" : "HITs need"} ${needs}.`}
      actions={
        s.canTakeTest ? (
          <Link href={`/task/qualification/${encodeURIComponent(s.type.id)}`} className={buttonClass("primary")}>
            {s.qualification?.lastTestAt ? "Retake the test" : "Take the test"}
          </Link>
        ) : null
      }
    >
      <p className="text-sm text-slate-700">{s.type.description}</p>
      {s.qualification?.lastTestAt ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="qualification-standing">
          You scored <strong>{score}%</strong> on {formatWhen(s.qualification.lastTestAt)}, which is not enough for these HITs.{" "}
          {s.canTakeTest
            ? "You may take the test again."
            : s.retryAt
              ? `You can retake it from ${formatWhen(s.retryAt)}.`
              : "This test cannot be retaken."}
        </p>
      ) : (
        <p className="mt-2 text-sm text-slate-600">Take this short test first: categorise each tweet as you would in a HIT.</p>
      )}
    </Card>
  );
}

export default async function TaskPage({ searchParams }: { searchParams: Promise<{ done?: string }> }) {
  const user = await requirePageUser("annotate");
  const { done } = await searchParams;
  const db = getDb();
  const worker = await ensureLocalWorker(db, user.id);
  const o = await loadTaskOverview(db, worker.workerId);
  const pendingTests = o.qualifications.filter((q) => !q.passed);
  const passedTests = o.qualifications.filter((q) => q.passed);
  const eventOf = (hitId: string) => o.eventNames.get(hitId);

  return (
    <>
      <PageHeader
        title="Your tasks"
        description="Label disaster tweets for the research team: choose the one category that fits each tweet best. Number keys choose a category; Enter and the arrow keys move between tweets."
      />
      <div className="space-y-6">
        {done && DONE_MESSAGES[done] ? <FormMessage ok message={DONE_MESSAGES[done]} /> : null}
        {o.blocked ? <FormMessage ok={false} message={`You cannot take new HITs: ${o.blocked.reason}`} /> : null}

        {o.inProgress.length > 0 ? (
          <Card title="In progress" description="Finish these before their deadline, or return them.">
            <ul className="divide-y divide-slate-100">
              {o.inProgress.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                  <div>
                    <div className="font-medium text-slate-800">{a.hit?.title ?? "HIT"}</div>
                    <div className="text-xs text-slate-500">
                      {eventOf(a.hitId) ? `${eventOf(a.hitId)} · ` : ""}due by {formatWhen(a.deadline)}
                    </div>
                  </div>
                  <Link href={`/task/work/${encodeURIComponent(a.id)}`} className={buttonClass("primary")}>
                    Continue
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}

        {pendingTests.map((s) => (
          <QualificationCard key={s.type.id} s={s} />
        ))}

        <Card
          title="Available HITs"
          description={
            passedTests.length > 0
              ? `Qualified: ${passedTests.map((s) => `${qualificationDisplayName(s.type.name)} (${s.qualification?.value ?? "—"}%)`).join(", ")}.`
              : "HITs you can start now."
          }
          actions={o.available.length > 0 && o.inProgress.length === 0 ? <AcceptHitButton hitId={o.available[0].id} label="Start the next HIT" primary autoFocus /> : null}
        >
          {o.available.length === 0 ? (
            <EmptyState title={pendingTests.length > 0 ? "Pass the qualification test to see HITs." : "No HITs are available right now."}>
              {pendingTests.length > 0 ? null : "New HITs appear here when the research team publishes them."}
            </EmptyState>
          ) : (
            <table className="w-full text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-1.5">HIT</th>
                  <th className="py-1.5">Time allowed</th>
                  <th className="py-1.5">Open until</th>
                  <th className="py-1.5" />
                </tr>
              </thead>
              <tbody>
                {o.available.map((h) => (
                  <tr key={h.id} className="border-t border-slate-100 align-top" data-testid="available-hit">
                    <td className="py-2 pr-3">
                      <div className="font-medium text-slate-800">{h.title}</div>
                      <div className="text-xs text-slate-500">
                        {eventOf(h.id) ? `${eventOf(h.id)} · ` : ""}
                        {h.description}
                      </div>
                    </td>
                    <td className="tabular py-2 pr-3">{formatDuration(h.assignmentDurationSeconds)}</td>
                    <td className="tabular py-2 pr-3">{formatWhen(h.expiresAt)}</td>
                    <td className="py-2 text-right">
                      <AcceptHitButton hitId={h.id} label="Accept" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {o.moreAvailable ? <p className="mt-2 text-xs text-slate-500">More HITs are waiting; they appear here as you finish these.</p> : null}
        </Card>

        {o.recent.length > 0 ? (
          <Card title="Your recent work">
            <table className="w-full text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-1.5">HIT</th>
                  <th className="py-1.5">Submitted</th>
                  <th className="py-1.5">Status</th>
                </tr>
              </thead>
              <tbody>
                {o.recent.map((a) => (
                  <tr key={a.id} className="border-t border-slate-100 align-top">
                    <td className="py-2 pr-3">{a.hit?.title ?? "HIT"}</td>
                    <td className="tabular py-2 pr-3">{a.submittedAt ? formatWhen(a.submittedAt) : "—"}</td>
                    <td className="py-2">
                      {a.status === PROVIDER_ASSIGNMENT_STATUS.Approved ? (
                        <Badge tone="green">Approved</Badge>
                      ) : a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected ? (
                        <Badge tone="red">Rejected</Badge>
                      ) : (
                        <Badge tone="amber">Awaiting review</Badge>
                      )}
                      {a.feedback ? <p className="mt-1 text-xs text-slate-600">{a.feedback}</p> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        ) : null}
      </div>
    </>
  );
}
