"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS, LEGEND_PROPS, timeLabel, timeTick } from "./chart-utils";

export type DecisionPoint = { t: number; approve: number; reject: number; hold: number };

/** Assignment decisions per time bucket, stacked by outcome. */
export function DecisionsChart({ data, bucketSeconds }: { data: DecisionPoint[]; bucketSeconds: number }) {
  return (
    <div className="h-56 w-full" data-testid="decisions-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="t" tickFormatter={timeTick(bucketSeconds * 1000)} tick={AXIS_STYLE} minTickGap={24} />
          <YAxis tick={AXIS_STYLE} allowDecimals={false} />
          <Tooltip labelFormatter={(t) => `${timeLabel(t)} (+${bucketSeconds < 60 ? `${bucketSeconds} s` : `${Math.round(bucketSeconds / 60)} min`})`} />
          <Legend {...LEGEND_PROPS} />
          <Bar dataKey="approve" name="approved" stackId="d" fill={COLORS.approve} isAnimationActive={false} />
          <Bar dataKey="reject" name="rejected" stackId="d" fill={COLORS.reject} isAnimationActive={false} />
          <Bar dataKey="hold" name="held" stackId="d" fill={COLORS.hold} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
