import Link from "next/link";
import { queryHref } from "./query-links";

/** A table header that sorts by its column (a link: works without JavaScript); a second click reverses. */
export function SortableTh({
  label,
  column,
  sort,
  dir,
  path,
  params,
  align = "left",
  title,
  defaultDir = "desc",
}: {
  label: string;
  column: string;
  sort: string;
  dir: "asc" | "desc";
  path: string;
  params: Record<string, string | undefined>;
  align?: "left" | "right";
  title?: string;
  defaultDir?: "asc" | "desc";
}) {
  const active = sort === column;
  const nextDir = active ? (dir === "asc" ? "desc" : "asc") : defaultDir;
  return (
    <th className={`px-3 py-2 font-medium ${align === "right" ? "text-right" : "text-left"}`} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined} title={title}>
      <Link href={queryHref(path, params, { sort: column, dir: nextDir, page: undefined })} className={`inline-flex items-center gap-1 hover:text-slate-800 ${active ? "text-slate-800" : ""}`}>
        {label}
        <span aria-hidden className="text-[10px]">{active ? (dir === "asc" ? "▲" : "▼") : "↕"}</span>
      </Link>
    </th>
  );
}
