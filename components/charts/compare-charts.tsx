"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS, SERIES_PALETTE } from "./chart-utils";

export type CompareMetricsRow = {
  event: string;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
};

/** Table 3 of every event as grouped bars. */
export function CompareMetricsChart({ data }: { data: CompareMetricsRow[] }) {
  return (
    <div className="h-72 w-full" data-testid="compare-metrics-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="event" tick={AXIS_STYLE} interval={0} />
          <YAxis domain={[0, 1]} tick={AXIS_STYLE} />
          <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : "–")} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="fleissKappa" name="Fleiss κ" fill={COLORS.kappa} isAnimationActive={false} />
          <Bar dataKey="krippendorffAlpha" name="Krippendorff α" fill={COLORS.alpha} isAnimationActive={false} />
          <Bar dataKey="averageObservedAgreement" name="Observed" fill={COLORS.observed} isAnimationActive={false} />
          <Bar dataKey="averageMajorityAgreement" name="Majority" fill={COLORS.majority} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Table 2 of every event: the share of each label among its accepted labels, stacked to 100%. */
export function CompareLabelsChart({ data, labels }: { data: Array<Record<string, string | number>>; labels: Array<{ value: string; name: string }> }) {
  return (
    <div className="h-80 w-full" data-testid="compare-labels-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} stackOffset="expand">
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="event" tick={AXIS_STYLE} interval={0} />
          <YAxis tick={AXIS_STYLE} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
          <Tooltip formatter={(v) => Number(v).toLocaleString("en-US")} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {labels.map((l, i) => (
            <Bar key={l.value} dataKey={l.value} name={l.name} stackId="labels" fill={SERIES_PALETTE[i % SERIES_PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
