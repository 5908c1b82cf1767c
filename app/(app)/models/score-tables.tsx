import { DataTable, right, Td } from "@/components/tables/data-table";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { labelName } from "@/lib/labels/label-names";
import type { ClassificationReport } from "@/lib/metrics/classification";
import type { EventScores } from "@/lib/models/scores";

/** Scores the way the HumAID paper prints them: fractions with three decimals. */
export function score(x: number): string {
  return x.toFixed(3);
}

/** Table 7 style: per event and overall, weighted P/R/F1 (plus accuracy and macro-F1). */
export function Table7({ perEvent, overall, testId }: { perEvent: EventScores[]; overall: ClassificationReport; testId: string }) {
  return (
    <DataTable
      testId={testId}
      columns={["Event", right("# Cls", "Class labels present in the gold labels"), right("Tweets"), right("Acc"), right("P"), right("R"), right("F1"), right("Macro-F1")]}
    >
      {perEvent.map((e) => (
        <tr key={e.slug} className="border-t border-slate-100" data-testid="table7-row">
          <Td>{e.name}</Td>
          <Td align="right">{e.classes}</Td>
          <Td align="right">{e.n.toLocaleString("en-US")}</Td>
          <Td align="right">{score(e.accuracy)}</Td>
          <Td align="right">{score(e.weighted.precision)}</Td>
          <Td align="right">{score(e.weighted.recall)}</Td>
          <Td align="right">{score(e.weighted.f1)}</Td>
          <Td align="right">{score(e.macroF1)}</Td>
        </tr>
      ))}
      <tr className="border-t-2 border-slate-200 font-semibold" data-testid="table7-overall">
        <Td>All</Td>
        <Td align="right">{overall.perClass.filter((c) => c.support > 0).length}</Td>
        <Td align="right">{overall.n.toLocaleString("en-US")}</Td>
        <Td align="right">{score(overall.accuracy)}</Td>
        <Td align="right">{score(overall.weighted.precision)}</Td>
        <Td align="right">{score(overall.weighted.recall)}</Td>
        <Td align="right">{score(overall.weighted.f1)}</Td>
        <Td align="right">{score(overall.macro.f1)}</Td>
      </tr>
    </DataTable>
  );
}

export function PerClassTable({ report, testId = "per-class" }: { report: ClassificationReport; testId?: string }) {
  return (
    <DataTable
      testId={testId}
      columns={["Class", right("Precision"), right("Recall"), right("F1"), right("Support")]}
    >
      {report.perClass.map((c) => (
        <tr key={c.label} className="border-t border-slate-100">
          <Td title={c.label}>{labelName(c.label)}</Td>
          <Td align="right">{score(c.precision)}</Td>
          <Td align="right">{score(c.recall)}</Td>
          <Td align="right">{score(c.f1)}</Td>
          <Td align="right">{c.support.toLocaleString("en-US")}</Td>
        </tr>
      ))}
      <tr className="border-t-2 border-slate-200 font-medium">
        <Td>Weighted average</Td>
        <Td align="right">{score(report.weighted.precision)}</Td>
        <Td align="right">{score(report.weighted.recall)}</Td>
        <Td align="right">{score(report.weighted.f1)}</Td>
        <Td align="right">{report.n.toLocaleString("en-US")}</Td>
      </tr>
      <tr className="border-t border-slate-100 font-medium">
        <Td>Macro average</Td>
        <Td align="right">{score(report.macro.precision)}</Td>
        <Td align="right">{score(report.macro.recall)}</Td>
        <Td align="right">{score(report.macro.f1)}</Td>
        <Td align="right">{report.n.toLocaleString("en-US")}</Td>
      </tr>
    </DataTable>
  );
}

/** Rows: gold label; columns: predicted label; the diagonal is shaded. */
export function ConfusionTable({ report }: { report: ClassificationReport }) {
  const { labels, matrix } = report.confusion;
  const max = Math.max(1, ...matrix.flat());
  return (
    <ScrollRegion label="Confusion matrix">
      <table className="text-xs" data-testid="confusion-matrix">
        <thead>
          <tr>
            <th className="px-2 py-1 text-left font-medium text-slate-500">gold ↓ / predicted →</th>
            {labels.map((l) => (
              <th key={l} className="px-1 py-1 font-medium text-slate-600" title={l}>
                <span className="block w-24 whitespace-normal break-words leading-tight">{labelName(l)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.map((row, g) => (
            <tr key={labels[g]}>
              <th className="px-2 py-1 text-left font-medium text-slate-600" title={labels[g]}>
                {labelName(labels[g])}
              </th>
              {row.map((v, p) => {
                const alpha = v === 0 ? 0 : 0.12 + (0.68 * v) / max;
                const color = g === p ? `rgba(16,185,129,${alpha})` : `rgba(239,68,68,${alpha})`;
                return (
                  <td key={labels[p]} className="tabular min-w-[3rem] border border-slate-100 px-2 py-1 text-right" style={{ backgroundColor: color }}>
                    {v}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
