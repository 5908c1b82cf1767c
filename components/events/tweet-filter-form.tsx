import { TWEET_STATUSES } from "@/lib/events/tweets";
import { FilterForm, FilterSelect, FilterText } from "@/components/ui/filter-form";

const ROLES = [
  { value: "unknown", name: "to label" },
  { value: "gold", name: "gold" },
];
const STATUSES = TWEET_STATUSES.map((s) => ({ value: s, name: s.replace("_", " ") }));

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
    <FilterForm action={path}>
      <FilterText label="Search text or tweet id" name="q" value={query.q} />
      <FilterSelect label="Role" name="role" value={query.role} any="all" options={ROLES} />
      <FilterSelect label="Status" name="status" value={query.status} any="all" options={STATUSES} />
      <FilterSelect label="Label (accepted or gold)" name="label" value={query.label} any="any" options={labels} />
    </FilterForm>
  );
}
