import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { EmptyState, PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Workers" };

export default async function WorkersPage() {
  await requirePageUser("view");
  const workers = await getDb().worker.findMany({
    orderBy: { lastSeenAt: "desc" },
    take: 200,
    select: { id: true, provider: true, externalId: true, assignmentsApproved: true, assignmentsRejected: true, goldCorrect: true, goldTotal: true },
  });
  return (
    <>
      <PageHeader title="Workers" description="Everyone who has worked on your HITs, on MTurk or in-house." />
      {workers.length === 0 ? (
        <EmptyState title="No worker has submitted an assignment yet." />
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">Worker</th>
              <th className="px-3 py-2">Provider</th>
              <th className="px-3 py-2 text-right">Approved</th>
              <th className="px-3 py-2 text-right">Rejected</th>
              <th className="px-3 py-2 text-right">Gold accuracy</th>
            </tr>
          </thead>
          <tbody>
            {workers.map((w) => (
              <tr key={w.id} className="border-t border-slate-100">
                <td className="px-3 py-2 font-mono text-xs">{w.externalId}</td>
                <td className="px-3 py-2">{w.provider}</td>
                <td className="tabular px-3 py-2 text-right">{w.assignmentsApproved}</td>
                <td className="tabular px-3 py-2 text-right">{w.assignmentsRejected}</td>
                <td className="tabular px-3 py-2 text-right">{w.goldTotal ? `${((100 * w.goldCorrect) / w.goldTotal).toFixed(1)}%` : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
