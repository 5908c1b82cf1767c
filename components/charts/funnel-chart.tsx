"use client";

import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS } from "./chart-utils";

export type FunnelStage = { stage: string; count: number; tone?: "good" | "bad" | "neutral" };

/** The tweet funnel (tweets → in HITs → judged → accepted / unresolved) as horizontal bars. */
export function FunnelChart({ stages }: { stages: FunnelStage[] }) {
  const data = stages.map((s) => ({ ...s, fill: s.tone === "good" ? COLORS.approve : s.tone === "bad" ? COLORS.reject : COLORS.bar }));
  return (
    <div className="h-56 w-full" data-testid="funnel-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 48, bottom: 4, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" tick={AXIS_STYLE} allowDecimals={false} />
          <YAxis type="category" dataKey="stage" width={92} tick={AXIS_STYLE} />
          <Tooltip formatter={(v) => [Number(v).toLocaleString("en-US"), "tweets"]} />
          <Bar dataKey="count" isAnimationActive={false} radius={[0, 3, 3, 0]}>
            <LabelList dataKey="count" position="right" style={{ fontSize: 11, fill: "#334155" }} formatter={(v: unknown) => Number(v).toLocaleString("en-US")} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
