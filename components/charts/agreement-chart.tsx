"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_STYLE, COLORS, LEGEND_PROPS } from "./chart-utils";

export type AgreementPoint = {
  judgments: number;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  averageObservedAgreement: number | null;
  averageMajorityAgreement: number | null;
};

/** The four measures of Table 3 as judgments arrive (x: approved judgments so far). */
export function AgreementChart({ data }: { data: AgreementPoint[] }) {
  return (
    <div className="h-64 w-full" data-testid="agreement-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="#e2e8f0" />
          <XAxis dataKey="judgments" type="number" domain={["dataMin", "dataMax"]} tick={AXIS_STYLE} tickFormatter={(n: number) => n.toLocaleString("en-US")} />
          <YAxis domain={[0, 1]} tick={AXIS_STYLE} />
          <Tooltip labelFormatter={(n) => `${Number(n).toLocaleString("en-US")} judgments`} formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
          <Legend {...LEGEND_PROPS} />
          <Line type="monotone" dataKey="fleissKappa" name="Fleiss κ" stroke={COLORS.kappa} dot={data.length <= 30} isAnimationActive={false} connectNulls />
          <Line type="monotone" dataKey="krippendorffAlpha" name="Krippendorff α" stroke={COLORS.alpha} dot={data.length <= 30} isAnimationActive={false} connectNulls />
          <Line type="monotone" dataKey="averageObservedAgreement" name="Observed agreement" stroke={COLORS.observed} dot={data.length <= 30} isAnimationActive={false} connectNulls />
          <Line type="monotone" dataKey="averageMajorityAgreement" name="Majority agreement" stroke={COLORS.majority} dot={data.length <= 30} isAnimationActive={false} connectNulls />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
