"use client";

import { Area, AreaChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS, dollars, timeLabel, timeTick } from "./chart-utils";

export type SpendPoint = { t: number; cumulativeCents: number };

/** Cumulative spend over time against the budget cap. */
export function SpendChart({ data, budgetCapCents }: { data: SpendPoint[]; budgetCapCents: number | null }) {
  const span = data.length ? data[data.length - 1].t - data[0].t : 0;
  const max = Math.max(budgetCapCents ?? 0, ...data.map((d) => d.cumulativeCents));
  return (
    <div className="h-56 w-full" data-testid="spend-chart">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="t" tickFormatter={timeTick(span)} tick={AXIS_STYLE} minTickGap={24} />
          <YAxis tick={AXIS_STYLE} tickFormatter={(c: number) => dollars(c)} domain={[0, Math.max(100, Math.ceil(max * 1.05))]} width={56} />
          <Tooltip labelFormatter={timeLabel} formatter={(v) => [dollars(Number(v)), "spent"]} />
          <Area type="stepAfter" dataKey="cumulativeCents" stroke={COLORS.spend} fill={COLORS.spend} fillOpacity={0.15} isAnimationActive={false} />
          {budgetCapCents !== null ? (
            <ReferenceLine y={budgetCapCents} stroke={COLORS.budget} strokeDasharray="4 4" label={{ value: `budget ${dollars(budgetCapCents)}`, position: "insideTopRight", fontSize: 11, fill: COLORS.budget }} />
          ) : null}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
