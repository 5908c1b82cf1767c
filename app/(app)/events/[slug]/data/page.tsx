import type { Metadata } from "next";
import { goldHealthBadge } from "@/lib/events/breakdowns";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { findEventBySlug, labelsOfScheme } from "@/lib/events/event-lookup";
import { formatInt, formatPercent } from "@/lib/text/format";
import { analysisStatus } from "@/lib/analysis/analysis";
import { goldHealth, SUSPICIOUS_MIN_GOOD, SUSPICIOUS_MISS_RATE } from "@/lib/gold/gold-health";
import { loadGoldPool } from "@/lib/gold/gold-pool";
import { type GoldFromImportPlan, planGoldFromImport } from "@/lib/gold/gold-requests";
import { listImports } from "@/lib/events/imports";
import { listGoldJobs } from "@/lib/gold/gold-jobs";
import { listTweets, tweetQuerySchema, TWEETS_PAGE_SIZE } from "@/lib/events/tweets";
import { formatBytes } from "@/lib/ingest/limits";
import { DEFAULT_INGEST_SETTINGS, type IngestSettings, parseIngestSettings } from "@/lib/ingest/settings";
import { AnalysisRefresher } from "@/components/events/analysis-refresher";
import { EventHeader } from "@/components/events/event-header";
import { FilterSettingsList } from "@/components/events/filter-settings-list";
import { BulkGoldForm, GoldActions, TweetGoldControl } from "@/components/events/gold-actions";
import { GoldPoolNotice } from "@/components/events/gold-pool-notice";
import { GoldJobsCard } from "@/components/events/gold-jobs-card";
import { LlmRunsCard } from "@/components/llm/llm-runs-card";
import { listLlmRuns } from "@/lib/crowd/llm/runs";
import { getLlmSettings } from "@/lib/crowd/llm/settings";
import { LLM_CROWD } from "@/lib/crowd/llm/client";
import { readOutage } from "@/lib/campaign/sync/outage";
import { MakeGoldCard } from "@/components/events/make-gold-card";
import { ImportList } from "@/components/events/import-list";
import { StatusBadge } from "@/components/events/status-badge";
import { UploadForm } from "@/components/events/upload-form";
import { JudgmentImportForm } from "@/components/events/judgment-import-form";
import { DataTable, Td, Th } from "@/components/tables/data-table";
import { Pager } from "@/components/tables/pager";
import { firstValues, queryHref } from "@/components/tables/query-links";
import { TweetFilterForm } from "@/components/events/tweet-filter-form";
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
  const [imports, tweets, analysis, labels, filters, goldJobs, llmRuns, llm, llmOutage] = await Promise.all([
    listImports(db, event.id),
    listTweets(db, event.id, query),
    analysisStatus(db, event.id),
    labelsOfScheme(db, event.scheme.id),
    db.event.findUniqueOrThrow({ where: { id: event.id }, select: { filters: true } }),
    listGoldJobs(db, event.id),
    listLlmRuns(db, event.id),
    getLlmSettings(db),
    readOutage(db, LLM_CROWD),
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
  const health = goldHealthBadge(gold);
  const shownGold = raw.gold === "all" ? 500 : 25;

  return (
    <>
      <EventHeader event={event} active="data" liveKinds={["import", "analysis"]} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Upload" description="Sampled tweets to label, or gold tweets with expert labels. Rows are filtered as in the HumAID paper (§3.1); every step's count is shown below." className="lg:col-span-2">
          {canEdit ? <UploadForm eventId={event.id} maxSize={maxSize} /> : <p className="text-sm text-slate-500">Viewers cannot upload.</p>}
        </Card>
        <Card title="Filtering settings" description="This event's pipeline, step by step (changed on the Settings page; re-run an import below to apply a change to its file).">
          {ingest ? (
            <FilterSettingsList ingest={ingest} event={event} />
          ) : (
            <p className="text-sm text-red-700">This event&apos;s filtering settings are invalid; imports will report why.</p>
          )}
        </Card>
      </div>

      {canEdit ? (
        <Card title="Import judgments" description="Judgments collected on another platform (MTurk, CrowdFlower / Figure Eight / Appen, or a plain CSV): previewed first, then stored together or not at all, and analysed like Accord's own." className="mt-6">
          <JudgmentImportForm eventId={event.id} />
        </Card>
      ) : null}

      <Card title="Imports" description="Each upload runs as a job: its progress survives a reload; its accepted rows appear together when it completes." className="mt-6">
        <ImportList imports={imports} canEdit={canEdit} labelMap={ingest?.labels.map ?? {}} labels={labelOptions} />
      </Card>

      {canEdit && tweetImports.length ? <MakeGoldCard path={path} eventId={event.id} uploads={tweetImports} choice={mg} plan={plan} planError={planError} labelName={labelName} /> : null}

      <GoldJobsCard jobs={goldJobs} />

      <LlmRunsCard eventId={event.id} runs={llmRuns} canEdit={canEdit} endpoint={{ model: llm.model, baseUrl: llm.baseUrl }} outage={llmOutage} />

      <Card title="Tweets" description={`${formatInt(tweets.total)} matching. Sorted by tweet id; paging stays fast at any depth.`} className="mt-6">
        <TweetFilterForm path={path} query={query} labels={labels} />
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
            <Badge tone={health.tone}>{health.text}</Badge>
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
