import { formatInt } from "@/lib/text/format";

type Step = { step: string; label?: string; enabled?: boolean; in?: number; kept: number; removed: number; reasons?: Record<string, number>; details?: Record<string, number>; note?: string; ms?: number };

function asSteps(funnel: unknown): Step[] {
  if (!Array.isArray(funnel)) return [];
  return funnel.filter((s): s is Step => typeof s === "object" && s !== null && typeof (s as Step).step === "string" && typeof (s as Step).kept === "number");
}

/** A step's duration: milliseconds below a second, else seconds. */
function formatMs(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

/** An import's funnel like the paper's Table 1: each step's kept and removed rows, with the reasons. */
export function FunnelTable({ funnel }: { funnel: unknown }) {
  const steps = asSteps(funnel);
  if (steps.length === 0) return <p className="text-xs text-slate-500">No funnel recorded.</p>;
  return (
    <table className="w-full text-xs" data-testid="import-funnel">
      <thead className="text-left uppercase tracking-wide text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">Step</th>
          <th className="py-1 pr-3 text-right font-medium">Kept</th>
          <th className="py-1 pr-3 text-right font-medium">Removed</th>
          <th className="py-1 pr-3 text-right font-medium">Time</th>
          <th className="py-1 font-medium">Reasons</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s) => (
          <tr key={s.step} className={`border-t border-slate-100 ${s.enabled === false ? "text-slate-500" : ""}`}>
            <td className="py-1 pr-3">
              {s.label ?? s.step}
              {s.enabled === false ? " (off)" : ""}
            </td>
            <td className="tabular py-1 pr-3 text-right font-medium">{formatInt(s.kept)}</td>
            <td className="tabular py-1 pr-3 text-right">{s.removed ? formatInt(s.removed) : ""}</td>
            <td className="tabular py-1 pr-3 text-right text-slate-500">{typeof s.ms === "number" ? formatMs(s.ms) : ""}</td>
            <td className="py-1 text-slate-600">
              {Object.entries(s.reasons ?? {})
                .map(([r, n]) => `${r}: ${formatInt(n)}`)
                .join("; ")}
              {s.details && Object.keys(s.details).length ? <span className="text-slate-500"> ({Object.entries(s.details).map(([r, n]) => `${r}: ${formatInt(n)}`).join("; ")})</span> : null}
              {s.note ? <span className="block text-slate-500">{s.note}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
