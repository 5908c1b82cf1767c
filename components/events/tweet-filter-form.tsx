import { TWEET_STATUSES } from "@/lib/events/tweets";
import { buttonClass } from "@/components/ui/button";

/** The Data tab's tweet search: text or id, role, status and label (a GET form: the filters are in the address). */
export function TweetFilterForm({
  path,
  query,
  labels,
}: {
  path: string;
  query: { q?: string; role?: string; status?: string; label?: string };
  labels: Array<{ value: string; name: string }>;
}) {
  return (
    <form method="get" action={path} className="mb-3 flex flex-wrap items-end gap-2 text-sm" role="search">
      <label className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Search text or tweet id</span>
        <input name="q" defaultValue={query.q ?? ""} className="w-64 rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Role</span>
        <select name="role" defaultValue={query.role ?? ""} className="rounded-md border border-slate-300 px-2 py-1">
          <option value="">all</option>
          <option value="unknown">to label</option>
          <option value="gold">gold</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Status</span>
        <select name="status" defaultValue={query.status ?? ""} className="rounded-md border border-slate-300 px-2 py-1">
          <option value="">all</option>
          {TWEET_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Label (accepted or gold)</span>
        <select name="label" defaultValue={query.label ?? ""} className="rounded-md border border-slate-300 px-2 py-1">
          <option value="">any</option>
          {labels.map((l) => (
            <option key={l.value} value={l.value}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
    </form>
  );
}
