"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, SERIES_PALETTE, LEGEND_PROPS } from "./chart-utils";

export type LabelBarRow = { label: string; name: string } & Record<string, number | string>;

/** Counts per label as horizontal bars; several series (e.g. majority vote vs Dawid–Skene) side by side. */
export function LabelBarChart({ data, series, testId = "label-chart" }: { data: LabelBarRow[]; series: Array<{ key: string; name: string }>; testId?: string }) {
  const height = Math.max(160, 28 + data.length * (series.length > 1 ? 30 : 22));
  return (
    <div className="w-full" style={{ height }} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" tick={AXIS_STYLE} allowDecimals={false} />
          <YAxis type="category" dataKey="name" width={200} tick={AXIS_STYLE} interval={0} />
          <Tooltip formatter={(v) => Number(v).toLocaleString("en-US")} />
          {series.length > 1 ? <Legend {...LEGEND_PROPS} /> : null}
          {series.map((s, i) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={SERIES_PALETTE[i % SERIES_PALETTE.length]} isAnimationActive={false} radius={[0, 3, 3, 0]} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
