import Link from "next/link";
import type { EventHeader as EventInfo } from "@/lib/events/event-lookup";
import { formatDate } from "@/lib/text/format";
import { getDb } from "@/lib/db/client";
import { usesSimulatedWorkers } from "@/lib/events/simulated";
import { Badge } from "@/components/ui/card";
import { LiveRefresh } from "./live-refresh";
import { crowdName } from "@/lib/crowd/registry";

export type EventTab = "overview" | "data" | "hits" | "agreement" | "settings";

const TABS: Array<{ key: EventTab; label: string; path: string }> = [
  { key: "overview", label: "Overview", path: "" },
  { key: "data", label: "Data", path: "/data" },
  { key: "hits", label: "HITs", path: "/hits" },
  { key: "agreement", label: "Agreement", path: "/agreement" },
  { key: "settings", label: "Settings", path: "/settings" },
];

/** The event's CSV downloads; each also comes zipped with the procedure manifest (?bundle=zip). */
const CSV_DOWNLOADS: Array<{ path: string; label: string; title?: string }> = [
  { path: "/labels", label: "Agreed labels (CSV)", title: "Text cells that begin with = + - @ get a leading apostrophe, so a spreadsheet shows them as text" },
  {
    path: "/labels?raw=1",
    label: "Agreed labels, text as stored (CSV, for code)",
    title: "Warning: tweet text exactly as stored, so a tweet beginning with = + - @ could run as a formula in a spreadsheet. For pandas and other code; the manifest records it.",
  },
  { path: "/labels?unresolved=1", label: "Agreed labels + unresolved tweets (CSV)" },
  { path: "/judgments", label: "All judgments (CSV)" },
  { path: "/audit", label: "Audit log (CSV)" },
];

/** Title, facts and tabs of an event page, the live badge, and the downloads. */
export async function EventHeader({ event, active, liveKinds }: { event: EventInfo; active: EventTab; liveKinds?: string[] }) {
  const simulated = await usesSimulatedWorkers(getDb(), event);
  const base = `/events/${event.slug}`;
  const api = `/api/events/${event.slug}/export`;
  return (
    <div className="mb-6">
      <div className="mb-1 text-xs text-slate-500">
        <Link href="/events" className="hover:underline">
          Events
        </Link>{" "}
        / <span className="font-mono">{event.slug}</span>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold text-slate-900" data-testid="event-name">
            {event.name}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <Badge tone="blue">{event.type}</Badge>
            <span>
              {formatDate(event.startDate)} – {formatDate(event.endDate)}
            </span>
            <span aria-hidden>·</span>
            <span>{event.scheme.name}</span>
            <span aria-hidden>·</span>
            <span data-testid="event-crowd">{crowdName(event.provider)}</span>
            {simulated ? (
              <span data-testid="simulated-badge">
                <Badge tone="amber" title="The judgments of this event come from simulated workers: their labels follow a noise model, not the tweets' meaning.">
                  simulated workers
                </Badge>
              </span>
            ) : null}
            {event.archived ? <Badge tone="amber">archived</Badge> : null}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <LiveRefresh slug={event.slug} kinds={liveKinds} />
          <details className="relative">
            <summary className="cursor-pointer list-none rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">Downloads ▾</summary>
            <div className="absolute right-0 z-10 mt-1 w-72 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg">
              {CSV_DOWNLOADS.map((d) => (
                <div key={d.path} className="flex items-center justify-between gap-2 rounded hover:bg-slate-50">
                  <a className="block flex-1 px-3 py-2" href={`${api}${d.path}`} download title={d.title}>
                    {d.label}
                  </a>
                  <a className="px-3 py-2 text-xs text-accent-700 hover:underline" href={`${api}${d.path}${d.path.includes("?") ? "&" : "?"}bundle=zip`} download aria-label={`${d.label.replace(" (CSV)", "")} with the procedure manifest (zip)`} title="The CSV and the procedure manifest (settings, hashes, seeds, version, setting changes) in one zip">
                    + manifest
                  </a>
                </div>
              ))}
              <a className="block rounded px-3 py-2 hover:bg-slate-50" href={`${api}/humaid`} download>
                HumAID format: train/dev/test (zip)
              </a>
            </div>
          </details>
        </div>
      </div>
      <nav className="mt-4 flex flex-wrap gap-x-1 border-b border-slate-200" aria-label="Event">
        {TABS.map((t) => (
          <Link
            key={t.key}
            href={`${base}${t.path}`}
            aria-current={active === t.key ? "page" : undefined}
            className={`-mb-px border-b-2 px-2 py-2 text-sm sm:px-3 font-medium ${active === t.key ? "border-accent-600 text-accent-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
