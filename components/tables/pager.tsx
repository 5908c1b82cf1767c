import Link from "next/link";

/** Previous / next links with a summary ("Rows 51–100 of 3,700"). */
export function Pager({ prevHref, nextHref, summary, testId = "pager" }: { prevHref: string | null; nextHref: string | null; summary: string; testId?: string }) {
  const cls = "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm";
  return (
    <nav className="mt-3 flex items-center justify-between text-sm text-slate-600" aria-label="Pages" data-testid={testId}>
      <span className="tabular">{summary}</span>
      <span className="flex gap-2">
        {prevHref ? (
          <Link href={prevHref} className={`${cls} hover:bg-slate-100`} rel="prev">
            ← Previous
          </Link>
        ) : (
          <span className={`${cls} text-slate-500`}>← Previous</span>
        )}
        {nextHref ? (
          <Link href={nextHref} className={`${cls} hover:bg-slate-100`} rel="next">
            Next →
          </Link>
        ) : (
          <span className={`${cls} text-slate-500`}>Next →</span>
        )}
      </span>
    </nav>
  );
}
