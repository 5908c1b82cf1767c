import Link from "next/link";
import type { LlmCompareJson } from "@/lib/llm-compare/report";
import type { LabelNamer } from "@/lib/labels/label-names";
import { formatCoefficient, formatDateTime, formatInt, formatPercent } from "@/lib/text/format";
import { displayText } from "@/lib/text/display-text";
import { DataTable, right, Td } from "@/components/tables/data-table";
import { Card, EmptyState } from "@/components/ui/card";

/** A cost per label, with enough digits for an LLM's fractions of a cent. */
export function formatUnitCost(value: number | null, currency: string): string {
  if (value === null || !Number.isFinite(value)) return "–";
  const digits = value >= 0.1 ? 2 : value >= 0.001 ? 4 : 6;
  return `${value.toFixed(digits)} ${currency}`;
}

function Figure({ name, value, note, testId }: { name: string; value: string; note?: string; testId: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid={testId}>
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{name}</div>
      <div className="tabular mt-1 text-xl font-semibold text-slate-900">{value}</div>
      {note ? <p className="mt-1 text-xs text-slate-500">{note}</p> : null}
    </div>
  );
}

/** The LLM against the crowd on the Agreement page (issue 32, item 3). */
export function LlmComparePanel({ report, name }: { report: LlmCompareJson; name: LabelNamer }) {
  if (!report.run) {
    return (
      <Card title="The LLM against the crowd" className="mt-6">
        <EmptyState title="No finished LLM run for this event yet.">
          <span data-testid="llm-compare-empty">
            Add one with &ldquo;Add LLM labels&rdquo; on the event&apos;s page, or run <code>accord llm label --event {report.event}</code>; this panel then compares its labels with the accepted ones.
          </span>
        </EmptyState>
      </Card>
    );
  }
  const r = report;
  const used = r.labels.filter((_, i) => r.confusion[i].some((x) => x > 0) || r.confusion.some((row) => row[i] > 0) || r.noAnswer[i] > 0);
  const idx = used.map((l) => r.labels.indexOf(l));
  const crowdCost = r.cost.crowd.map((c) => formatUnitCost(c.perAcceptedLabel, c.currency)).join(" + ") || "–";
  return (
    <Card
      title="The LLM against the crowd"
      actions={
        <a className="text-sm text-accent-700 underline" href={`/api/events/${encodeURIComponent(r.event)}/export/llm-compare`} data-testid="llm-compare-download">
          Download as JSON
        </a>
      }
      description={`${r.run!.model}, run of ${formatDateTime(r.run!.createdAt)} · ${formatInt(r.tweets.llmLabelled)} tweets labelled${r.tweets.llmNoLabel ? `, ${formatInt(r.tweets.llmNoLabel)} without a label (no answer, or passes that tied)` : ""} · compared on the ${formatInt(r.tweets.compared)} tweets with an accepted label.`}
      className="mt-6"
    >
      <div className="space-y-6" data-testid="llm-compare">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure
            testId="llm-gold-accuracy"
            name="Gold accuracy"
            value={`LLM ${formatPercent(r.goldAccuracy.llm.accuracy)}`}
            note={`${formatInt(r.goldAccuracy.llm.correct)}/${formatInt(r.goldAccuracy.llm.total)} gold tweets (not the prompt's examples) · crowd ${formatPercent(r.goldAccuracy.crowd.accuracy)} of ${formatInt(r.goldAccuracy.crowd.total)} gold answers`}
          />
          <Figure
            testId="llm-kappa"
            name="Cohen's κ with the accepted labels"
            value={formatCoefficient(r.kappa)}
            note={r.kappaInterval ? `95% bootstrap interval ${formatCoefficient(r.kappaInterval[0])} – ${formatCoefficient(r.kappaInterval[1])} (tweets resampled, as Table 3's)` : "no interval (too few tweets)"}
          />
          <Figure testId="llm-agreement" name="Same label" value={formatPercent(r.agreement)} note={`${formatInt(r.tweets.compared - r.tweets.disagreements)} of ${formatInt(r.tweets.compared)} tweets`} />
          <Figure testId="llm-cost" name="Cost per label" value={`LLM ${formatUnitCost(r.cost.llm?.perLabel ?? null, r.cost.llm?.currency ?? "")}`} note={`crowd ${crowdCost} per accepted label`} />
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Confusion table: accepted label (rows) × the LLM&apos;s label (columns)</h3>
          <DataTable testId="llm-confusion" columns={["Accepted", ...used.map((l) => right(name(l))), right("No label")]}>
            {idx.map((i) => (
              <tr key={r.labels[i]} className="border-t border-slate-100">
                <Td className="text-xs font-medium">{name(r.labels[i])}</Td>
                {idx.map((j) => (
                  <Td key={j} align="right" className={i === j ? "font-semibold text-emerald-700" : r.confusion[i][j] ? "text-red-700" : "text-slate-400"}>
                    {formatInt(r.confusion[i][j])}
                  </Td>
                ))}
                <Td align="right" className="text-slate-500">{formatInt(r.noAnswer[i])}</Td>
              </tr>
            ))}
          </DataTable>
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Where they disagree most</h3>
          {r.disagreements.length === 0 ? (
            <p className="text-sm text-slate-500">Nowhere: the LLM gave the accepted label on every compared tweet.</p>
          ) : (
            <DataTable testId="llm-disagreements" columns={["Accepted → LLM", right("Tweets"), "Examples"]}>
              {r.disagreements.map((d) => (
                <tr key={`${d.accepted}>${d.llm}`} className="border-t border-slate-100 align-top">
                  <Td className="whitespace-nowrap text-xs font-medium">
                    {name(d.accepted)} → {name(d.llm)}
                  </Td>
                  <Td align="right">{formatInt(d.count)}</Td>
                  <Td className="max-w-xl text-xs">
                    {d.examples.map((e) => (
                      <span key={e.tweetId} className="mb-1 block break-words">
                        <span className="font-mono text-[11px] text-slate-500">{e.tweetId}</span> {displayText(e.text)}
                      </span>
                    ))}
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
        <p className="text-sm text-slate-700" data-testid="llm-echo-summary">
          LLM-echo test: {formatInt(r.echo.tested)} workers tested (≥ {r.echo.minTweets} tweets where the LLM and the accepted label differ), <strong>{formatInt(r.echo.flagged)} flagged</strong> at a false-discovery level of {r.echo.alpha} (Benjamini–Hochberg).{" "}
          {r.echo.workers
            .filter((w) => w.flagged)
            .map((w, i) => (
              <span key={w.workerId}>
                {i ? ", " : ""}
                <Link className="font-mono text-xs text-accent-700 underline" href={`/workers?q=${encodeURIComponent(w.workerId)}`}>
                  {w.workerId}
                </Link>
              </span>
            ))}{" "}
          A flag asks for a review; it never rejects work by itself.
        </p>
      </div>
    </Card>
  );
}
