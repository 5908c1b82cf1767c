import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { findEventBySlug, labelsOfScheme } from "@/lib/events/event-lookup";
import { formatDate, formatDateTime, formatInt, formatPercent } from "@/lib/events/format";
import { analysisStatus } from "@/lib/events/analysis";
import { goldHealth, SUSPICIOUS_MIN_GOOD, SUSPICIOUS_MISS_RATE } from "@/lib/events/gold-health";
import { loadGoldPool } from "@/lib/events/gold-pool";
import { type GoldFromImportPlan, planGoldFromImport } from "@/lib/events/gold-requests";
import { listImports } from "@/lib/events/imports";
import { listTweets, TWEET_STATUSES, tweetQuerySchema, TWEETS_PAGE_SIZE } from "@/lib/events/tweets";
import { formatBytes } from "@/lib/ingest/limits";
import { importWarning } from "@/lib/ingest/outcome";
import { labelMapChoices } from "@/lib/ingest/label-map-choices";
import { DEFAULT_INGEST_SETTINGS, type IngestSettings, parseIngestSettings } from "@/lib/ingest/settings";
import { AnalysisRefresher } from "@/components/events/analysis-refresher";
import { EventHeader } from "@/components/events/event-header";
import { FunnelTable } from "@/components/events/funnel-table";
import { BulkGoldForm, GoldActions, TweetGoldControl } from "@/components/events/gold-actions";
import { GoldPoolNotice } from "@/components/events/gold-pool-notice";
import { MakeGoldConfirm } from "@/components/events/make-gold-form";
import { ImportProgress } from "@/components/events/import-progress";
import { LabelMapForm } from "@/components/events/label-map-form";
import { StatusBadge } from "@/components/events/status-badge";
import { UploadForm } from "@/components/events/upload-form";
import { DataTable, Td, Th } from "@/components/tables/data-table";
import { Pager } from "@/components/tables/pager";
import { firstValues, queryHref } from "@/components/tables/query-links";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { IMPORT_KIND, IMPORT_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { displayText } from "@/lib/text/display-text";

export const metadata: Metadata = { title: "Event data" };

export default async function EventDataPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("view");
  const { slug } = await params;
  const raw = firstValues(await searchParams);
  const db = getDb();
  const event = await findEventBySlug(db, slug);
  if (!event) notFound();
  const query = tweetQuerySchema.parse(raw);
  const [imports, tweets, analysis, labels, filters] = await Promise.all([
    listImports(db, event.id),
    listTweets(db, event.id, query),
    analysisStatus(db, event.id),
    labelsOfScheme(db, event.scheme.id),
    db.event.findUniqueOrThrow({ where: { id: event.id }, select: { filters: true } }),
  ]);
  const [gold, pool] = await Promise.all([goldHealth(db, { eventId: event.id, stats: analysis.analysis?.goldStats ?? [] }), loadGoldPool(db, event.id)]);
  const canEdit = roleAllows(user.role, "edit");
  // "Make gold from labelled tweets": the preview is this page with mgImport/mgPer/mgSeed; confirming applies it.
  const tweetImports = imports.filter((i) => i.kind === IMPORT_KIND.tweets && i.status === IMPORT_STATUS.completed && i.rowsStored > 0);
  const mg = { importId: raw.mgImport, perClass: Number(raw.mgPer), seed: raw.mgSeed ? Number(raw.mgSeed) : 1 };
  let plan: GoldFromImportPlan | null = null;
  let planError: string | null = null;
  if (canEdit && mg.importId && Number.isInteger(mg.perClass) && mg.perClass > 0 && Number.isInteger(mg.seed) && mg.seed >= 0) {
    try {
      plan = await planGoldFromImport(db, { eventId: event.id, importId: mg.importId, perClass: mg.perClass, seed: mg.seed });
    } catch {
      planError = "That upload is not part of this event.";
    }
  }
  let ingest: IngestSettings | null = null;
  try {
    ingest = parseIngestSettings(filters.filters);
  } catch {
    // invalid stored settings: the import itself will say so
  }
  const maxSize = formatBytes(ingest?.limits.maxFileBytes ?? DEFAULT_INGEST_SETTINGS.limits.maxFileBytes);
  const path = `/events/${event.slug}/data`;
  const filterParams = { q: query.q, role: query.role, status: query.status, label: query.label };
  const labelName = new Map(labels.map((l) => [l.value, l.name]));
  const labelOptions = labels.map((l) => ({ value: l.value, name: l.name }));
  const suspicious = gold.filter((g) => g.suspicious && !g.retired).length;
  const shownGold = raw.gold === "all" ? 500 : 25;

  return (
    <>
      <EventHeader event={event} active="data" liveKinds={["import", "analysis"]} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Upload" description="Sampled tweets to label, or gold tweets with expert labels. Rows are filtered as in the HumAID paper (§3.1); every step's count is shown below." className="lg:col-span-2">
          {canEdit ? <UploadForm eventId={event.id} maxSize={maxSize} /> : <p className="text-sm text-slate-500">Viewers cannot upload.</p>}
        </Card>
        <Card title="Filtering settings" description="This event's pipeline, step by step (set when it was created).">
          {ingest ? (
            <ul className="space-y-1 text-sm text-slate-700" data-testid="filter-settings">
              <li>
                Dates: {ingest.date.enabled ? `${formatDate(event.startDate)} – ${formatDate(event.endDate)}` : "off"}
              </li>
              <li>
                Locations: {ingest.location.enabled ? (event.locations.length ? event.locations.map((l) => l.name).join(", ") : "no target locations set") : "off"}
                {ingest.location.enabled ? `; rows without any: ${ingest.location.noLocation}` : ""}
              </li>
              <li>
                Language: {ingest.language.enabled ? `${ingest.language.languages.join(", ")}; undetermined: ${ingest.language.undetermined}` : "off"}
              </li>
              <li>Words: {ingest.wordCount.enabled ? `at least ${ingest.wordCount.minWords}` : "off"}</li>
              <li>Near-duplicates: {ingest.duplicates.enabled ? `cosine > ${ingest.duplicates.threshold}${ingest.duplicates.againstStored ? ", also against stored tweets" : ""}` : "off"}</li>
              <li>Labels outside the scheme in tweet files: {ingest.labels.outsideScheme === "error" ? "ask for a mapping" : ingest.labels.outsideScheme}</li>
              <li>
                Label map:{" "}
                {Object.keys(ingest.labels.map).length
                  ? Object.entries(ingest.labels.map)
                      .map(([from, to]) => `${from} → ${to ?? "drop"}`)
                      .join("; ")
                  : "none"}
              </li>
              <li>Sampling: {ingest.sampling.enabled ? `${ingest.sampling.perClass ?? "–"} per ${ingest.sampling.by}, budget ${ingest.sampling.budget ?? "none"}` : "off"}</li>
            </ul>
          ) : (
            <p className="text-sm text-red-700">This event&apos;s filtering settings are invalid; imports will report why.</p>
          )}
        </Card>
      </div>

      <Card title="Imports" description="Each upload runs as a job: its progress survives a reload; its accepted rows appear together when it completes." className="mt-6">
        {imports.length === 0 ? (
          <EmptyState title="Nothing imported yet." />
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="imports">
            {imports.map((imp) => (
              <li key={imp.id} className="py-3" data-testid="import-row">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  {/* amber, not green, when nothing or under half was stored (the sentence below says which) */}
                  {importWarning(imp) ? <StatusBadge status="warning" label={imp.status} /> : <StatusBadge status={imp.status} />}
                  <Badge tone={imp.kind === IMPORT_KIND.gold ? "amber" : "slate"}>{imp.kind}</Badge>
                  <span className="font-medium">{imp.fileName}</span>
                  <span className="text-xs text-slate-500">
                    {formatBytes(imp.fileSize)}
                    {imp.format ? ` · ${imp.format}` : ""} · {formatDateTime(imp.createdAt)}
                    {imp.createdBy ? ` · ${imp.createdBy}` : ""}
                  </span>
                  <span className="ml-auto tabular text-xs text-slate-600">
                    {formatInt(imp.rowsRead)} read → {formatInt(imp.rowsStored)} stored
                    {imp.errorCount ? (
                      <>
                        {" · "}
                        <a className="text-red-700 underline" href={`/api/imports/${imp.id}/errors`} download>
                          {formatInt(imp.errorCount)} row errors (CSV)
                        </a>
                      </>
                    ) : null}
                  </span>
                </div>
                {importWarning(imp) ? (
                  <p className="mt-1 text-xs font-medium text-amber-800" data-testid="import-warning">
                    {importWarning(imp)}
                  </p>
                ) : null}
                {imp.message ? <p className="mt-1 text-xs text-slate-600">{imp.message}</p> : null}
                {imp.status === IMPORT_STATUS.needs_mapping && imp.fileLabels ? (
                  <div className="mt-2">
                    {canEdit ? (
                      <LabelMapForm
                        importId={imp.id}
                        labels={labelMapChoices(imp.fileLabels, ingest?.labels.map ?? {}, { values: labels.map((l) => l.value), names: labels.map((l) => l.name) })}
                        scheme={labels.map((l) => ({ value: l.value, name: l.name }))}
                      />
                    ) : (
                      <p className="text-xs text-slate-500">A researcher must map this file&apos;s labels before it imports.</p>
                    )}
                  </div>
                ) : null}
                {imp.progress && (imp.status === IMPORT_STATUS.queued || imp.status === IMPORT_STATUS.running) ? (
                  <div className="mt-2">
                    <ImportProgress importId={imp.id} jobId={imp.progress.jobId} initial={imp.progress} canCancel={canEdit} />
                  </div>
                ) : null}
                {imp.progress?.error && imp.status === IMPORT_STATUS.failed ? <p className="mt-1 text-xs text-red-700">{imp.progress.error}</p> : null}
                {imp.funnel ? (
                  <details className="mt-2" open={imports[0].id === imp.id}>
                    <summary className="cursor-pointer text-xs font-medium text-slate-600">Funnel (like the paper&apos;s Table 1)</summary>
                    <div className="mt-2 max-w-3xl">
                      <FunnelTable funnel={imp.funnel} />
                    </div>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {canEdit && tweetImports.length ? (
        <Card
          title="Make gold from labelled tweets"
          description="Pick N tweets per class from an upload's own labels (stratified, seeded: the same seed picks the same tweets) as gold with that label; the rest stay unknown tweets to annotate. Tweets already in a HIT are never picked."
          className="mt-6"
        >
          <form method="get" action={path} className="flex flex-wrap items-end gap-2 text-sm" data-testid="make-gold">
            <label className="flex flex-col gap-1">
              <span className="text-xs text-slate-500">Upload</span>
              <select name="mgImport" defaultValue={mg.importId ?? tweetImports[0].id} className="rounded-md border border-slate-300 px-2 py-1">
                {tweetImports.map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.fileName} ({formatInt(i.rowsStored)} stored)
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-slate-500">Per class</span>
              <input name="mgPer" type="number" min={1} required defaultValue={Number.isInteger(mg.perClass) && mg.perClass > 0 ? mg.perClass : 10} className="w-24 rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-slate-500">Seed</span>
              <input name="mgSeed" type="number" min={0} defaultValue={mg.seed} className="w-24 rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <button type="submit" className={buttonClass("secondary")}>
              Preview
            </button>
          </form>
          {planError ? <p className="mt-2 text-sm text-red-700">{planError}</p> : null}
          {plan && mg.importId ? (
            <div className="mt-3" data-testid="make-gold-preview">
              {plan.classes.length === 0 ? (
                <p className="text-sm text-slate-600">No tweets of this upload carry a label of the event&apos;s scheme and are still waiting to be annotated.</p>
              ) : (
                <DataTable
                  head={
                    <tr>
                      <Th>Class (the file&apos;s label)</Th>
                      <Th align="right">Labelled, not yet in a HIT</Th>
                      <Th align="right">Becomes gold</Th>
                    </tr>
                  }
                >
                  {plan.classes.map((c) => (
                    <tr key={c.label} className="border-t border-slate-100">
                      <Td>{labelName.get(c.label) ?? c.label}</Td>
                      <Td align="right">{formatInt(c.available)}</Td>
                      <Td align="right">{formatInt(c.picked)}</Td>
                    </tr>
                  ))}
                </DataTable>
              )}
              <p className="mt-2 text-xs text-slate-600">
                {formatInt(plan.picks.length)} become gold; {formatInt(plan.remaining)} of the upload&apos;s unknown tweets stay to annotate.
              </p>
              <MakeGoldConfirm eventId={event.id} importId={mg.importId} perClass={mg.perClass} seed={mg.seed} total={plan.picks.length} />
            </div>
          ) : null}
        </Card>
      ) : null}

      <Card title="Tweets" description={`${formatInt(tweets.total)} matching. Sorted by tweet id; paging stays fast at any depth.`} className="mt-6">
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
        {canEdit ? <BulkGoldForm eventId={event.id} filters={filterParams} matching={tweets.total} labels={labelOptions} /> : null}
        {tweets.rows.length === 0 ? (
          <EmptyState title="No tweets match." />
        ) : (
          <DataTable
            testId="tweets-table"
            head={
              <tr>
                <Th>Tweet id</Th>
                <Th>Text</Th>
                <Th>Role</Th>
                <Th>Status</Th>
                <Th>Label</Th>
                <Th align="right">Agreement</Th>
                {canEdit ? <Th>Gold</Th> : null}
              </tr>
            }
          >
            {tweets.rows.map((t) => (
              <tr key={t.id} className="border-t border-slate-100" data-testid="tweet-row">
                <Td className="font-mono text-xs">{t.externalId}</Td>
                <Td className="max-w-xl break-words">
                  {displayText(t.text)}
                  {t.duplicateOf ? <span className="block text-xs text-slate-500">near-duplicate of {t.duplicateOf}</span> : null}
                </Td>
                <Td>{t.role === TWEET_ROLE.gold ? <Badge tone="amber">gold</Badge> : "to label"}</Td>
                <Td>
                  <StatusBadge status={t.status} />
                </Td>
                <Td className="text-xs">{t.acceptedLabel ? labelName.get(t.acceptedLabel.label) ?? t.acceptedLabel.label : t.goldLabel ? `${labelName.get(t.goldLabel) ?? t.goldLabel} (expert)` : "–"}</Td>
                <Td align="right">{t.acceptedLabel ? `${t.acceptedLabel.topVotes}/${t.acceptedLabel.totalVotes}` : "–"}</Td>
                {canEdit ? (
                  <Td>
                    {t.role === TWEET_ROLE.gold && t.status !== TWEET_STATUS.retired ? (
                      <TweetGoldControl tweetId={t.id} gold defaultLabel={null} labels={labelOptions} />
                    ) : t.role === TWEET_ROLE.unknown && t.status === TWEET_STATUS.pending ? (
                      <TweetGoldControl tweetId={t.id} gold={false} defaultLabel={t.sourceLabel && labelName.has(t.sourceLabel) ? t.sourceLabel : null} labels={labelOptions} />
                    ) : (
                      <span className="text-xs text-slate-400" title="Tweets already in a HIT as unknown cannot become gold">–</span>
                    )}
                  </Td>
                ) : null}
              </tr>
            ))}
          </DataTable>
        )}
        <Pager
          testId="tweets-pager"
          summary={`${formatInt(tweets.rows.length)} shown of ${formatInt(tweets.total)} (${TWEETS_PAGE_SIZE} per page)`}
          prevHref={tweets.prevBefore ? queryHref(path, filterParams, { before: tweets.prevBefore }) : null}
          nextHref={tweets.nextAfter ? queryHref(path, filterParams, { after: tweets.nextAfter }) : null}
        />
      </Card>

      <Card
        title="Gold health"
        description={`How often OTHERWISE-GOOD workers (≥ ${event.settings.assignmentApproval.num}/${event.settings.assignmentApproval.den} on the other gold of the same HIT) miss each gold tweet. Flagged when at least ${SUSPICIOUS_MIN_GOOD} such workers saw it and ${formatPercent(SUSPICIOUS_MISS_RATE, 0)} or more missed it: the expert label may be wrong or the tweet ambiguous. Retired gold is not used in new HITs or qualification tests.`}
        actions={
          <div className="flex flex-col items-end gap-1">
            {suspicious ? <Badge tone="red">{suspicious} suspicious</Badge> : <Badge tone="green">healthy</Badge>}
            <AnalysisRefresher eventId={event.id} stale={analysis.stale} running={analysis.running} finishedAt={analysis.finishedAt?.getTime() ?? null} />
          </div>
        }
        className="mt-6"
      >
        <GoldPoolNotice pool={pool} questions={event.settings.qualification.questions} goldPerHit={event.settings.goldPerHit} nameOf={(l) => labelName.get(l) ?? l} />
        {gold.length === 0 ? (
          <EmptyState title="No gold tweets yet.">Upload a gold file (tweet id, text, expert label) above.</EmptyState>
        ) : (
          <DataTable
            testId="gold-health"
            head={
              <tr>
                <Th>Tweet</Th>
                <Th>Expert label</Th>
                <Th align="right" title="Judgments on this gold tweet (all workers)">Shown</Th>
                <Th align="right" title="Missed by otherwise-good workers / seen by them">Good workers missed</Th>
                <Th>Their most common answer</Th>
                <Th />
              </tr>
            }
          >
            {gold.slice(0, shownGold).map((g) => (
              <tr key={g.id} className={`border-t border-slate-100 ${g.suspicious && !g.retired ? "bg-red-50" : ""} ${g.retired ? "text-slate-500" : ""}`} data-testid="gold-row">
                <Td className="max-w-md break-words">
                  <span className="block font-mono text-xs text-slate-500">{g.externalId}</span>
                  {displayText(g.text)}
                </Td>
                <Td className="text-xs">{g.goldLabel ? labelName.get(g.goldLabel) ?? g.goldLabel : "–"}</Td>
                <Td align="right">{formatInt(g.shown)}</Td>
                <Td align="right">
                  {g.goodShown ? `${formatInt(g.goodMissed)}/${formatInt(g.goodShown)} (${formatPercent(g.goodMissRate, 0)})` : "–"}
                  {g.suspicious && !g.retired ? <span className="ml-1"><Badge tone="red">suspicious</Badge></span> : null}
                  {g.retired ? <span className="ml-1"><Badge>retired</Badge></span> : null}
                </Td>
                <Td className="text-xs">{g.topWrongLabel ? `${labelName.get(g.topWrongLabel) ?? g.topWrongLabel} (${g.topWrongCount})` : "–"}</Td>
                <Td>{canEdit ? <GoldActions tweetId={g.id} retired={g.retired} /> : null}</Td>
              </tr>
            ))}
          </DataTable>
        )}
        {gold.length > shownGold ? (
          <p className="mt-2 text-xs text-slate-500">
            The {shownGold} least healthy of {formatInt(gold.length)} gold tweets are shown.{" "}
            {shownGold < 500 ? (
              <a className="text-accent-700 underline" href={queryHref(path, { ...filterParams, gold: "all" })}>
                Show up to 500
              </a>
            ) : null}
          </p>
        ) : null}
      </Card>
    </>
  );
}
