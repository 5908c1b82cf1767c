import type { ReactNode, TdHTMLAttributes } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** The dashboard's table look: a bordered card, small caps header, zebra-free rows, tabular numbers. */
export function DataTable({ head, children, testId, className = "", label = "Table" }: { head: ReactNode; children: ReactNode; testId?: string; className?: string; label?: string }) {
  return (
    <ScrollRegion label={label} className={`rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

export function Th({ children, align = "left", title }: { children?: ReactNode; align?: "left" | "right"; title?: string }) {
  return (
    <th className={`px-3 py-2 font-medium ${align === "right" ? "text-right" : "text-left"}`} title={title}>
      {children}
    </th>
  );
}

export function Td({ children, align = "left", className = "", ...rest }: Omit<TdHTMLAttributes<HTMLTableCellElement>, "align"> & { align?: "left" | "right"; "data-testid"?: string; "data-at"?: string }) {
  return (
    <td className={`px-3 py-2 align-top ${align === "right" ? "tabular text-right" : ""} ${className}`} {...rest}>
      {children}
    </td>
  );
}
