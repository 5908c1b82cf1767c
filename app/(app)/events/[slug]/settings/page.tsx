import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { procedureFormValues } from "@/lib/events/procedure-form.validation";
import { loadSettingsPage } from "@/lib/events/settings-page";
import { describeGoldRuleComparison } from "@/lib/procedure/whole-record";
import { EventHeader } from "@/components/events/event-header";
import { IngestSettingsForm } from "@/components/events/ingest-settings-form";
import { ProcedureSettingsForm } from "@/components/events/procedure-settings-form";
import { RulesCard } from "@/components/events/rules-card";
import { SettingChangeList } from "@/components/events/setting-change-list";

export const metadata: Metadata = { title: "Event settings" };

/** An event's settings: its rules in words, the forms to change them and the upload filtering (editors), and the history of changes. */
export default async function EventSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser("view");
  const page = await loadSettingsPage(getDb(), (await params).slug);
  if (!page) notFound();
  const { event, basis, ingest, labels, goldRisk, changes } = page;
  return (
    <>
      <EventHeader event={event} active="settings" />
      <RulesCard settings={event.settings} gold={goldRisk} />
      {roleAllows(user.role, "edit") ? (
        <div className="mt-6">
          <ProcedureSettingsForm eventId={event.id} basis={basis} current={procedureFormValues(event.settings)} labels={labels} goldRuleEffect={describeGoldRuleComparison(goldRisk.comparison)} />
          <div className="mt-6">
            <IngestSettingsForm eventId={event.id} basis={ingest.basis} current={ingest.values} />
          </div>
        </div>
      ) : null}
      <SettingChangeList changes={changes} />
    </>
  );
}
