import type { ReactNode, TdHTMLAttributes } from "react";

/** The dashboard's table look: a bordered card, small caps header, zebra-free rows, tabular numbers. */
export function DataTable({ head, children, testId, className = "" }: { head: ReactNode; children: ReactNode; testId?: string; className?: string }) {
  return (
    // Focusable so that keyboard users can scroll a table wider than the screen.
    <div tabIndex={0} className={`overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-accent-500 ${className}`}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
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
