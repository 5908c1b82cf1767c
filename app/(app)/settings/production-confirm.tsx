import type { ReactNode } from "react";

/** The checkbox a crowd's production mode needs before real money moves (shown only in production mode). */
export function ProductionConfirm({ defaultChecked = false, errors, children }: { defaultChecked?: boolean; errors?: string[]; children: ReactNode }) {
  return (
    <label className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <input type="checkbox" name="confirmProduction" defaultChecked={defaultChecked} className="mt-0.5" />
      <span>
        {children}
        {errors ? <span className="block text-xs">{errors.join(" ")}</span> : null}
      </span>
    </label>
  );
}
