"use client";

import { Area, AreaChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, chartMoney, COLORS, timeLabel, timeTicks } from "./chart-utils";

export type SpendPoint = { t: number; cumulativeCents: number };

/** A budget cap is drawn as a reference line only when it is near the spend (else it would flatten the curve). */
const CAP_NEAR = 2;

/** Cumulative spend over time, the y axis fitted to the spend; the budget cap as a reference line when near. */
/** Amounts are minor units of `currency` (the event's crowd's, lib/events/event-currency.ts). */
export function SpendChart({ data, budgetCapCents, currency }: { data: SpendPoint[]; budgetCapCents: number | null; currency: string }) {
  const money = (minor: number) => chartMoney(minor, currency);
  const spent = Math.max(0, ...data.map((d) => d.cumulativeCents));
  const showCap = budgetCapCents !== null && budgetCapCents <= CAP_NEAR * Math.max(spent, 1);
  const { ticks, format } = timeTicks(data[0]?.t ?? 0, data[data.length - 1]?.t ?? 0);
  return (
    <div className="w-full" data-testid="spend-chart">
      <div className="h-56 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="t" type="number" scale="time" domain={["dataMin", "dataMax"]} ticks={ticks} tickFormatter={format} tick={AXIS_STYLE} />
          <YAxis tick={AXIS_STYLE} tickFormatter={(c: number) => money(c)} domain={[0, "auto"]} width={56} />
          <Tooltip labelFormatter={timeLabel} formatter={(v) => [money(Number(v)), "spent"]} />
          <Area type="stepAfter" dataKey="cumulativeCents" stroke={COLORS.spend} fill={COLORS.spend} fillOpacity={0.15} isAnimationActive={false} />
          {showCap && budgetCapCents !== null ? (
            <ReferenceLine y={budgetCapCents} ifOverflow="extendDomain" stroke={COLORS.budget} strokeDasharray="4 4" label={{ value: `budget ${money(budgetCapCents)}`, position: "insideTopRight", fontSize: 11, fill: COLORS.budget }} />
          ) : null}
        </AreaChart>
      </ResponsiveContainer>
      </div>
      {budgetCapCents !== null && !showCap ? (
        <p className="mt-1 text-xs text-slate-600">
          Budget cap {money(budgetCapCents)}, far above the {money(spent)} spent ({((100 * spent) / Math.max(1, budgetCapCents)).toFixed(1)}%): not drawn, so the spend stays readable.
        </p>
      ) : null}
    </div>
  );
}
