"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS, SERIES_PALETTE, LEGEND_PROPS } from "./chart-utils";

export type CompareMetricsRow = {
  event: string;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
  /** Bootstrap 95% intervals, drawn as error bars. */
  ci?: Partial<Record<Measure, [number, number] | null>> | null;
};

type Measure = "fleissKappa" | "krippendorffAlpha" | "averageObservedAgreement" | "averageMajorityAgreement";
const MEASURES: Measure[] = ["fleissKappa", "krippendorffAlpha", "averageObservedAgreement", "averageMajorityAgreement"];

const BARS: Array<{ key: Measure; name: string; fill: string }> = [
  { key: "fleissKappa", name: "Fleiss κ", fill: COLORS.kappa },
  { key: "krippendorffAlpha", name: "Krippendorff α", fill: COLORS.alpha },
  { key: "averageObservedAgreement", name: "Observed", fill: COLORS.observed },
  { key: "averageMajorityAgreement", name: "Majority", fill: COLORS.majority },
];

/** Error bar offsets [below, above] of each measure, as recharts' ErrorBar reads them. */
function withErrors(row: CompareMetricsRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const m of MEASURES) {
    const v = row[m];
    const ci = row.ci?.[m];
    if (v !== null && ci) out[`${m}Error`] = [Math.max(0, v - ci[0]), Math.max(0, ci[1] - v)];
  }
  return out;
}

/** Event names slanted and shortened (the full name in the tooltip), so that ten names side by side never overlap. */
const EVENT_AXIS = {
  dataKey: "event",
  tick: AXIS_STYLE,
  interval: 0,
  angle: -35,
  textAnchor: "end",
  height: 72,
  tickFormatter: (v: string) => (v.length > 18 ? `${v.slice(0, 17)}…` : v),
} as const;

/** Table 3 of every event as grouped bars, with bootstrap intervals as error bars when computed. */
export function CompareMetricsChart({ data }: { data: CompareMetricsRow[] }) {
  const rows = data.map(withErrors);
  return (
    <div className="h-80 w-full" data-testid="compare-metrics-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis {...EVENT_AXIS} />
          <YAxis domain={[0, 1]} tick={AXIS_STYLE} />
          <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : "–")} />
          <Legend {...LEGEND_PROPS} />
          {BARS.map((b) => (
            <Bar key={b.key} dataKey={b.key} name={b.name} fill={b.fill} isAnimationActive={false}>
              <ErrorBar dataKey={`${b.key}Error`} width={3} strokeWidth={1} stroke="#334155" />
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Table 2 of every event: the share of each label among its accepted labels, stacked to 100%. */
export function CompareLabelsChart({ data, labels }: { data: Array<Record<string, string | number>>; labels: Array<{ value: string; name: string }> }) {
  return (
    <div className="h-96 w-full" data-testid="compare-labels-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} stackOffset="expand">
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis {...EVENT_AXIS} />
          <YAxis tick={AXIS_STYLE} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
          <Tooltip formatter={(v) => Number(v).toLocaleString("en-US")} />
          <Legend {...LEGEND_PROPS} />
          {labels.map((l, i) => (
            <Bar key={l.value} dataKey={l.value} name={l.name} stackId="labels" fill={SERIES_PALETTE[i % SERIES_PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
