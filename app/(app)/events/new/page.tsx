import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { crowdChoices } from "@/lib/crowd/registry";
import { HUMAID_SCHEME_SLUG } from "@/lib/labels/schemes";
import { NewEventForm } from "@/components/events/new-event-form";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "New event" };

export default async function NewEventPage() {
  await requirePageUser("edit");
  const schemes = await getDb().labelScheme.findMany({ orderBy: [{ builtin: "desc" }, { name: "asc" }], select: { id: true, slug: true, name: true, _count: { select: { labels: true } } } });
  const humaid = schemes.find((s) => s.slug === HUMAID_SCHEME_SLUG);
  return (
    <>
      <PageHeader title="New event" description="Name the disaster, say where and when it happened, and check the rules. Next: upload the sampled tweets and the gold tweets." />
      <NewEventForm schemes={schemes.map((s) => ({ id: s.id, name: s.name, labels: s._count.labels }))} defaultSchemeId={humaid?.id ?? schemes[0]?.id ?? null} crowds={crowdChoices()} />
    </>
  );
}
