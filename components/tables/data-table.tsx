import type { ReactNode, TdHTMLAttributes } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** A header cell given as data: a label (left-aligned), or a label with its alignment and hover title. */
export type Column = string | { label: string; align?: "left" | "right"; title?: string };

/** A right-aligned (numeric) column. */
export const right = (label: string, title?: string): Column => ({ label, align: "right", title });

/** The header row of `columns`. */
export function HeadRow({ columns }: { columns: Column[] }) {
  return (
    <tr>
      {columns.map((c, i) => {
        const col = typeof c === "string" ? { label: c } : c;
        return (
          <Th key={i} align={col.align} title={col.title}>
            {col.label}
          </Th>
        );
      })}
    </tr>
  );
}

/**
 * The dashboard's table look: a bordered card, small caps header, zebra-free rows, tabular numbers. The header is
 * `columns` (plain labels) or `head` (rows of its own, for cells with markup).
 */
export function DataTable({ head, columns, children, testId, className = "", label = "Table" }: { head?: ReactNode; columns?: Column[]; children: ReactNode; testId?: string; className?: string; label?: string }) {
  return (
    <ScrollRegion label={label} className={`rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">{columns ? <HeadRow columns={columns} /> : head}</thead>
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
