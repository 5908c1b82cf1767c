import { formatDateTime } from "@/lib/text/format";
import type { SettingChangeRow } from "@/lib/events/setting-changes";
import { settingValueText } from "@/lib/util/leaf-changes";
import { DataTable, Td } from "@/components/tables/data-table";
import { Card, EmptyState } from "@/components/ui/card";

/** Every change of this event's settings (procedure and ingest): when, who, which setting, old → new, why. */
export function SettingChangeList({ changes }: { changes: SettingChangeRow[] }) {
  return (
    <Card title="Changes to the settings" description="Oldest first; each export's manifest lists the same changes." className="mt-6">
      {changes.length === 0 ? (
        <EmptyState title="No change since the event was created." />
      ) : (
        <DataTable
          testId="setting-changes"
          columns={["Time (UTC)", "By", "Setting", "From", "To", "Why"]}
        >
          {changes.map((c) => (
            <tr key={c.id} className="border-t border-slate-100">
              <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(c.at)}</Td>
              <Td className="text-xs">{c.by}</Td>
              <Td className="font-mono text-xs">
                {c.scope === "procedure" ? "" : `${c.scope}: `}
                {c.key}
              </Td>
              <Td className="tabular">{settingValueText(c.oldValue)}</Td>
              <Td className="tabular font-medium">{settingValueText(c.newValue)}</Td>
              <Td className="text-slate-600">{c.reason ?? ""}</Td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}
