import Link from "next/link";
import type { Table3Scope } from "@/lib/metrics/table3";
import { scopeExplanation } from "@/lib/analysis/table3-scopes";

const NAMES: Record<Table3Scope, string> = { agreed: "Agreed tweets", all: "All judged tweets" };

/** Chooses Table 3's scope through `?scope=` (agreed tweets by default) and says which one is shown. */
export function ScopeToggle({ scope, basePath }: { scope: Table3Scope; basePath: string }) {
  return (
    <div className="flex flex-col gap-1" data-testid="table3-scope">
      <div className="inline-flex overflow-hidden rounded-md border border-slate-200 text-xs" role="group" aria-label="Table 3 scope">
        {(["agreed", "all"] as const).map((s) => (
          <Link
            key={s}
            href={s === "agreed" ? basePath : `${basePath}?scope=all`}
            aria-current={s === scope ? "true" : undefined}
            className={`px-3 py-1 ${s === scope ? "bg-slate-800 text-white" : "bg-white text-slate-700 hover:bg-slate-50"}`}
          >
            {NAMES[s]}
          </Link>
        ))}
      </div>
      <p className="max-w-xl text-xs text-slate-500" data-testid="table3-scope-note">
        {scopeExplanation(scope)}
      </p>
    </div>
  );
}
