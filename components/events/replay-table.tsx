import type { ReplayOutcome } from "@/lib/analysis/replay";
import { formatCoefficient, formatInt, formatMoney } from "@/lib/text/format";
import { DataTable, right, Td } from "@/components/tables/data-table";

/**
 * The replay grid: outcomes of the recorded work under other thresholds (the event's own row first, marked).
 * `currency`: the event's crowd's; the replayed HITs' rewards (and so costCents) are minor units of it.
 */
export function ReplayTable({ rows, currency }: { rows: ReplayOutcome[]; currency: string }) {
  return (
    <DataTable
      testId="replay-table"
      columns={["Gold rule", "Label rule", "HIT rule", right("Assignments approved"), right("Labels accepted"), right("HITs approved"), right("Unresolved (out of data)"), right("Cost"), right("κ"), right("α")]}
    >
      {rows.map((r) => (
        <tr key={`${r.assignmentApproval}-${r.tweetAcceptance}-${r.hitApproval}`} className={`border-t border-slate-100 ${r.actual ? "bg-amber-50 font-medium" : ""}`}>
          <Td>
            {r.assignmentApproval}
            {r.actual ? " (this event)" : ""}
          </Td>
          <Td>{r.tweetAcceptance}</Td>
          <Td>{r.hitApproval}</Td>
          <Td align="right">{formatInt(r.assignmentsApproved)}</Td>
          <Td align="right">{formatInt(r.labelsAccepted)}</Td>
          <Td align="right">{formatInt(r.hitsApproved)}</Td>
          <Td align="right">
            {formatInt(r.hitsUnresolved)} ({formatInt(r.hitsOutOfData)})
          </Td>
          <Td align="right">{formatMoney(r.costCents, currency)}</Td>
          <Td align="right">{formatCoefficient(r.fleissKappa)}</Td>
          <Td align="right">{formatCoefficient(r.krippendorffAlpha)}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
