import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { workerCrowdName } from "@/lib/events/workers";
import { workerEchoDetail } from "@/lib/llm-compare/worker-flags";
import { displayText } from "@/lib/text/display-text";
import { formatInt, formatPercent } from "@/lib/text/format";
import { DataTable, Td } from "@/components/tables/data-table";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Worker" };

const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

const fmtP = (p: number | null) => (p === null ? "–" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4));

/** A worker's page: their record and, per event with LLM labels, the LLM-echo test with its evidence tweets. */
export default async function WorkerPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser("view");
  const parsed = idSchema.safeParse((await params).id);
  if (!parsed.success) notFound();
  const db = getDb();
  const worker = await db.worker.findUnique({ where: { id: parsed.data }, select: { id: true, externalId: true, provider: true, goldCorrect: true, goldTotal: true, agreeCount: true, agreeTotal: true, blocked: true } });
  if (!worker) notFound();
  const tests = await workerEchoDetail(db, worker.id);
  return (
    <>
      <PageHeader
        title={`Worker ${worker.externalId}`}
        description={`${workerCrowdName(worker.provider)} · gold ${formatInt(worker.goldCorrect)}/${formatInt(worker.goldTotal)} (${formatPercent(worker.goldTotal ? worker.goldCorrect / worker.goldTotal : null)}) · agreement with accepted labels ${formatPercent(worker.agreeTotal ? worker.agreeCount / worker.agreeTotal : null)}${worker.blocked ? " · blocked" : ""}`}
      />
      <p className="mb-4 text-sm">
        <Link href={`/workers?q=${encodeURIComponent(worker.externalId)}`} className="text-accent-700 underline">
          Back to the Workers page
        </Link>
      </p>
      {tests.length === 0 ? (
        <EmptyState title="No LLM-echo test for this worker.">They have not worked on an event with a finished LLM run.</EmptyState>
      ) : (
        tests.map((t) => (
          <Card
            key={t.eventId}
            className="mb-6"
            title={
              <span>
                LLM-echo test in {t.eventName} {t.test.flagged ? <Badge tone="red">echoes the LLM</Badge> : <Badge tone="green">not flagged</Badge>}
              </span>
            }
            description={
              t.test.tested
                ? `On ${formatInt(t.test.tweets)} tweets where the LLM's label differs from the accepted one, they gave the LLM's label ${formatInt(t.test.echoes)} times; an independent worker of their gold accuracy would give it about ${t.test.expected.toFixed(1)} times. One-sided p = ${fmtP(t.test.p)}, adjusted for the workers tested (Benjamini–Hochberg) ${fmtP(t.test.pAdjusted)}. A flag asks for a review; it never rejects work by itself.`
                : `Not tested: ${formatInt(t.test.tweets)} tweets where the LLM's label differs from the accepted one, too few to tell.`
            }
          >
            <div data-testid="echo-test" data-flagged={t.test.flagged ? "1" : "0"}>
              {t.evidence.length === 0 ? (
                <p className="p-4 text-sm text-slate-500">No tweet where the LLM and the accepted label differ.</p>
              ) : (
                <DataTable testId="echo-evidence" columns={["Tweet", "Accepted", "LLM", "Their label"]}>
                  {t.evidence.map((e) => (
                    <tr key={e.externalId} className="border-t border-slate-100 align-top">
                      <Td className="max-w-xl break-words text-xs">
                        <span className="block font-mono text-[11px] text-slate-500">{e.externalId}</span>
                        {displayText(e.text)}
                      </Td>
                      <Td className="text-xs">{e.accepted}</Td>
                      <Td className="text-xs">{e.llm}</Td>
                      <Td className={`text-xs ${e.echoed ? "font-semibold text-red-700" : ""}`}>{e.label}</Td>
                    </tr>
                  ))}
                </DataTable>
              )}
            </div>
          </Card>
        ))
      )}
    </>
  );
}
