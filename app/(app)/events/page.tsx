import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { EmptyState, PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage() {
  await requirePageUser("view");
  const events = await getDb().event.findMany({
    where: { archived: false },
    orderBy: { createdAt: "desc" },
    select: { id: true, slug: true, name: true, type: true, startDate: true, endDate: true, _count: { select: { tweets: true, hits: true } } },
  });
  return (
    <>
      <PageHeader title="Events" description="Each event is one disaster: its sampled tweets, gold tweets, HITs and agreed labels." />
      {events.length === 0 ? (
        <EmptyState title="No events yet." />
      ) : (
        <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-sm shadow-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">Event</th>
              <th className="px-3 py-2">Type</th>
              <th className="px-3 py-2 text-right">Tweets</th>
              <th className="px-3 py-2 text-right">HITs</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id} className="border-t border-slate-100">
                <td className="px-3 py-2">
                  <Link className="font-medium text-accent-700 hover:underline" href={`/events/${e.slug}`}>
                    {e.name}
                  </Link>
                </td>
                <td className="px-3 py-2 capitalize">{e.type}</td>
                <td className="tabular px-3 py-2 text-right">{e._count.tweets}</td>
                <td className="tabular px-3 py-2 text-right">{e._count.hits}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
