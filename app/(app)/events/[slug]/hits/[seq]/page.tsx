import { describeRules } from "@/lib/procedure/describe-rules";
import { minCountFor } from "@/lib/procedure/ratio";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { findEventBySlug, labelsOfScheme } from "@/lib/events/event-lookup";
import { formatDateTime, formatDuration, formatMoney } from "@/lib/text/format";
import { crowdCurrency } from "@/lib/events/event-currency";
import { loadHitDetail } from "@/lib/events/hits";
import { labelNamer } from "@/lib/labels/label-names";
import { HitActions } from "@/components/campaign/hit-actions";
import { RedecideForm } from "@/components/campaign/redecide-form";
import { EventHeader } from "@/components/events/event-header";
import { StatusBadge } from "@/components/events/status-badge";
import { DataTable, right, Td, Th } from "@/components/tables/data-table";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { HIT_STATUS, TWEET_STATUS, isOneOf } from "@/lib/db/enums";
import { displayText } from "@/lib/text/display-text";

export const metadata: Metadata = { title: "HIT" };

/** One line on why the HIT is in its state: the latest HIT decision's reason (its numbers come from the event's settings), else what it waits for. */
function hitWhy({
  status,
  audit,
  rules,
  maxJudgments,
  maxAssignments,
  submitted,
}: {
  status: string;
  audit: Array<{ entityType: string; action: string; reason: string | null }>;
  rules: ReturnType<typeof describeRules>;
  maxJudgments: number;
  maxAssignments: number;
  submitted: number;
}): string {
  const decision = [...audit].reverse().find((a) => a.entityType === "hit" && ["approve-hit", "unresolved-hit", "extend"].includes(a.action) && a.reason);
  if (decision?.reason && isOneOf(status, [HIT_STATUS.approved, HIT_STATUS.unresolved, HIT_STATUS.extended])) return decision.reason;
  const need = `a HIT is approved when ${rules.short.hitApproval} unknown tweets get an accepted label (${rules.short.tweetAcceptance} of approved answers agree); it gets more assignments, up to ${maxJudgments}, only while that is still reachable.`;
  if (status === HIT_STATUS.draft) return `Not on the provider yet; ${need}`;
  if (status === HIT_STATUS.published || status === HIT_STATUS.reviewing) return `${submitted} of ${maxAssignments} assignments submitted so far; ${need}`;
  if (status === HIT_STATUS.expired) return `Its lifetime ran out with ${submitted} of ${maxAssignments} assignments submitted.`;
  return decision?.reason ?? need;
}

function reasonText(reason: unknown, feedback: string | null): string {
  if (reason && typeof reason === "object" && "text" in reason && typeof (reason as { text: unknown }).text === "string") return (reason as { text: string }).text;
  return feedback ?? "";
}

export default async function HitDetailPage({ params }: { params: Promise<{ slug: string; seq: string }> }) {
  const user = await requirePageUser("view");
  const { slug, seq } = await params;
  const db = getDb();
  const event = await findEventBySlug(db, slug);
  const n = Number(seq);
  if (!event || !Number.isSafeInteger(n) || n < 1) notFound();
  const [detail, labels, currency] = await Promise.all([loadHitDetail(db, event.id, n), labelsOfScheme(db, event.scheme.id), crowdCurrency(db, event.provider)]);
  if (!detail) notFound();
  const { hit, items, assignments, answers, audit } = detail;
  const canEdit = roleAllows(user.role, "edit");
  const short = labelNamer(labels);
  // eslint-disable-next-line react-hooks/purity -- a server component renders once per request: now is the request's time
  const now = Date.now();
  const unknownCount = items.filter((i) => !i.isGold).length;
  const goldCount = items.length - unknownCount;
  // The rules from the event's settings; the counts from this HIT (settings may have changed since it was packed).
  const rules = describeRules(event.settings);
  const hitNeed = minCountFor(unknownCount, event.settings.hitApproval);
  const why = hitWhy({ status: hit.status, audit, rules, maxJudgments: event.settings.maxJudgmentsPerTweet, maxAssignments: hit.maxAssignments, submitted: assignments.length });

  return (
    <>
      <EventHeader event={event} active="hits" liveKinds={["decision", "hit"]} />
      <div className="mb-4 text-sm">
        <Link href={`/events/${event.slug}/hits`} className="text-accent-700 hover:underline">
          ← All HITs
        </Link>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title={`HIT #${hit.seq}`} description={hit.batch?.title ?? undefined} actions={<StatusBadge status={hit.status} />} className="lg:col-span-2">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3" data-testid="hit-facts">
            <div>
              <dt className="text-xs text-slate-500">Provider HIT id</dt>
              <dd className="font-mono text-xs">{hit.providerHitId ?? "not published"}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Reward / assignments</dt>
              <dd>
                {formatMoney(hit.rewardCents, hit.batch?.currency ?? currency)} × up to {hit.maxAssignments}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Accepted labels</dt>
              <dd>
                {hit.acceptedTweets}/{unknownCount} unknown tweets (HIT approved at ≥ {hitNeed}/{unknownCount})
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Published</dt>
              <dd>{formatDateTime(hit.publishedAt)}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Expires</dt>
              <dd>{formatDateTime(hit.expiresAt)}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Decided</dt>
              <dd data-testid="hit-decided-at" data-at={hit.decidedAt?.toISOString()}>{hit.decidedAt ? formatDateTime(hit.decidedAt) : "not yet"}</dd>
            </div>
          </dl>
          <p className="mt-3 rounded bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="hit-why">
            <span className="font-medium">Why {hit.status.replace(/_/g, " ")}: </span>
            {why}
          </p>
          {hit.syncError ? <p className="mt-3 rounded bg-amber-50 px-3 py-2 text-xs text-amber-900">Sync problem: {hit.syncError}</p> : null}
        </Card>
        <Card title="Actions" description="Expire stops new workers; extend adds time; delete removes a HIT with no pending work.">
          {canEdit ? <HitActions hitId={hit.id} status={hit.status} /> : <p className="text-sm text-slate-500">Viewers cannot change HITs.</p>}
        </Card>
      </div>

      <Card title="Assignments and decisions" description={`${event.settings.goldRule === "whole-record" ? `Each submitted assignment is graded on its worker's gold record in this event up to it (with its ${goldCount} gold tweets): approved at ${rules.short.goldRule}` : `Each submitted assignment is graded on its ${goldCount} gold tweets: approved at ${rules.short.assignmentApproval} (${minCountFor(goldCount, event.settings.assignmentApproval)} of ${goldCount}) correct`}, else ${event.settings.belowThresholdAction === "hold" ? "held for review" : "rejected"} with the reason below (which the worker sees).`} className="mt-6">
        {assignments.length === 0 ? (
          <EmptyState title="No assignment submitted yet." />
        ) : (
          <DataTable
            testId="assignments-table"
            columns={[
              "Worker",
              "Status",
              right("Gold"),
              "Reason",
              { label: "Accepted", title: "When the worker accepted the HIT" },
              { label: "Submitted", title: "When the worker submitted it" },
              { label: "Decided", title: "When Accord (or a researcher) decided" },
              right("Time", "Submitted minus accepted"),
              { label: "Auto-approval", title: "When the provider approves it by itself if nobody decides" },
              ...(canEdit ? ["Decide by hand"] : []),
            ]}
          >
            {assignments.map((a) => {
              const open = !a.autoApprovalTime || a.autoApprovalTime.getTime() > now;
              return (
                <tr key={a.id} className="border-t border-slate-100" data-testid="assignment-row">
                  <Td className={a.worker.user ? "text-xs" : "font-mono text-xs"}>
                    <Link href={`/workers?q=${encodeURIComponent(a.worker.externalId)}`} className="text-accent-700 hover:underline">
                      {a.worker.user?.name ?? a.worker.externalId}
                    </Link>
                    {a.worker.blocked ? <span className="ml-1"><Badge tone="red">blocked</Badge></span> : null}
                  </Td>
                  <Td>
                    <StatusBadge status={a.status} />
                    {a.decidedBy && a.decidedBy !== "system" ? <span className="block text-xs text-slate-500">by hand</span> : null}
                  </Td>
                  <Td align="right">{a.goldTotal !== null ? `${a.goldCorrect}/${a.goldTotal}` : "–"}</Td>
                  <Td className="max-w-sm text-xs text-slate-700">{reasonText(a.decisionReason, a.feedback)}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-500" data-testid="accepted-at" data-at={a.acceptTime?.toISOString()}>{formatDateTime(a.acceptTime)}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-500" data-testid="submitted-at" data-at={a.submitTime?.toISOString()}>{formatDateTime(a.submitTime)}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-500" data-testid="decided-at" data-at={a.decidedAt?.toISOString()}>{formatDateTime(a.decidedAt)}</Td>
                  <Td align="right" className="text-xs">{a.acceptTime && a.submitTime ? formatDuration((a.submitTime.getTime() - a.acceptTime.getTime()) / 1000) : "–"}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(a.autoApprovalTime)}</Td>
                  {canEdit ? <Td>{open ? <RedecideForm assignmentId={a.id} /> : <span className="text-xs text-slate-500">past auto-approval</span>}</Td> : null}
                </tr>
              );
            })}
          </DataTable>
        )}
      </Card>

      <Card title={`The ${items.length} tweets and every answer`} description={`In the order the workers saw them. Gold: the expert label; green answers are correct. Unknown: the accepted label (${rules.short.tweetAcceptance} of approved answers); struck-through answers are not counted (their assignment was not approved).`} className="mt-6">
        <DataTable
          testId="hit-items"
          head={
            <tr>
              <Th>#</Th>
              <Th>Tweet</Th>
              <Th>Expected / accepted</Th>
              {assignments.map((a, i) => (
                <Th key={a.id} title={a.worker.user?.name ?? a.worker.externalId}>
                  W{i + 1}
                </Th>
              ))}
            </tr>
          }
        >
          {items.map((it) => {
            const expected = it.isGold ? it.tweet.goldLabel : it.tweet.acceptedLabel?.label ?? null;
            return (
              <tr key={it.id} className={`border-t border-slate-100 ${it.isGold ? "bg-amber-50/40" : ""}`} data-testid="hit-item">
                <Td className="text-xs text-slate-500">{it.position + 1}</Td>
                <Td className="max-w-md break-words">
                  <span className="block font-mono text-[11px] text-slate-500">{it.tweet.externalId}</span>
                  {displayText(it.tweet.text)}
                </Td>
                <Td className="text-xs">
                  {it.isGold ? <Badge tone="amber">gold</Badge> : null} {expected ? short(expected) : <span className="text-slate-500">{it.tweet.status === TWEET_STATUS.unresolved ? "unresolved" : "no agreement yet"}</span>}
                  {it.tweet.acceptedLabel ? <span className="text-slate-500"> ({it.tweet.acceptedLabel.topVotes}/{it.tweet.acceptedLabel.totalVotes})</span> : null}
                </Td>
                {assignments.map((a) => {
                  const ans = answers[it.id]?.[a.id];
                  if (!ans) return <Td key={a.id} className="text-xs text-slate-500">–</Td>;
                  const good = it.isGold ? ans.correct === true : expected !== null && ans.label === expected;
                  const bad = it.isGold ? ans.correct === false : expected !== null && ans.label !== expected;
                  return (
                    <Td key={a.id} className={`text-xs ${!it.isGold && !ans.counted ? "text-slate-500 line-through" : good ? "text-emerald-800" : bad ? "text-red-700" : "text-slate-700"}`} title={!it.isGold && !ans.counted ? `${short(ans.label)} (not counted: its assignment was not approved)` : short(ans.label)}>
                      {short(ans.label)}
                    </Td>
                  );
                })}
              </tr>
            );
          })}
        </DataTable>
      </Card>

      <Card title="Audit trail" description="Every decision and action on this HIT and its assignments, oldest first." className="mt-6">
        {audit.length === 0 ? (
          <EmptyState title="Nothing recorded yet." />
        ) : (
          <ol className="space-y-1 text-sm" data-testid="hit-audit">
            {audit.map((a) => (
              <li key={a.id} className="flex flex-wrap gap-2">
                <span className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(a.at)}</span>
                <span className="text-xs text-slate-500">{a.actorType === "system" ? "Accord" : a.actor?.name ?? "a user"}</span>
                <StatusBadge status={a.action} />
                <span className="text-xs text-slate-500">{a.entityType}</span>
                {a.reason ? <span className="text-slate-700">{a.reason}</span> : null}
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}
