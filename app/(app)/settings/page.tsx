import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { ROLE_DESCRIPTIONS, ROLES } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { DEFAULT_CURRENCY, formatCents } from "@/lib/text/format";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { ratioText } from "@/lib/procedure/ratio";
import { readOutage } from "@/lib/campaign/sync/outage";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { getProlificSettings } from "@/lib/crowd/prolific/settings";
import { getLlmSettings } from "@/lib/crowd/llm/settings";
import { getProlificWebhookStatus } from "@/lib/crowd/prolific/webhook-status";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { LlmForm } from "./llm-form";
import { ProlificForm } from "./prolific-form";
import { ProviderForm } from "./provider-form";
import { CreateUserForm, UserRowActions } from "./user-forms";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const me = await requirePageUser("admin");
  const db = getDb();
  const [users, crowd, prolific, outage, llm] = await Promise.all([
    db.user.findMany({
      orderBy: { createdAt: "asc" },
      select: { id: true, email: true, name: true, role: true, disabled: true, createdAt: true },
    }),
    getCrowdSettings(db),
    getProlificSettings(db),
    readOutage(db),
    getLlmSettings(db),
  ]);
  const prolificWebhook = await getProlificWebhookStatus(db, prolific.mode);
  const rules = DEFAULT_PROCEDURE_SETTINGS;
  return (
    <>
      <PageHeader title="Settings" description="Accounts and roles, the crowd provider and its credentials, budget and rule defaults." />
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card
          title="Crowd provider: MTurk"
          description="Where HITs go. Credentials stay on the server (encrypted); this page never shows them."
          actions={<Badge tone={crowd.mode === "production" ? "red" : crowd.mode === "sandbox" ? "amber" : "blue"}>{crowd.mode}</Badge>}
          className="lg:col-span-2"
        >
          {outage ? (
            <p role="alert" className="mb-3 rounded bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="provider-outage">
              The sync loop cannot reach the {outage.provider} provider since {new Date(outage.since).toLocaleString("en-GB", { timeZone: "UTC" })} UTC: {outage.message} It retries with a
              growing pause and clears this as soon as a call gets through.
            </p>
          ) : null}
          <ProviderForm
            current={{
              mode: crowd.mode,
              hasCredentials: crowd.hasCredentials,
              credentialsSource: crowd.credentialsSource,
              budgetCapDollars: crowd.budgetCapCents !== null ? (crowd.budgetCapCents / 100).toFixed(2) : "",
              defaultRewardCents: String(crowd.defaults.rewardCents),
              productionConfirmed: crowd.productionConfirmed,
            }}
          />
        </Card>
        <Card title="Defaults" description="What a new event and a new batch start from.">
          <dl className="space-y-1.5 text-sm" data-testid="defaults">
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Budget cap</dt>
              <dd className="tabular">{crowd.budgetCapCents !== null ? `${formatCents(crowd.budgetCapCents)} (${DEFAULT_CURRENCY} spend only)` : "none"}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Reward per HIT</dt>
              <dd className="tabular">{formatCents(crowd.defaults.rewardCents)}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">HIT</dt>
              <dd>
                {rules.hitSize} tweets = {rules.goldPerHit} gold + {rules.unknownPerHit} unknown
              </dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Judgments per tweet</dt>
              <dd>
                {rules.judgmentsPerTweet}, up to {rules.maxJudgmentsPerTweet}
              </dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Qualification test</dt>
              <dd>
                pass ≥ {rules.qualification.passCorrect}/{rules.qualification.questions}
              </dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Approve an assignment</dt>
              <dd>≥ {ratioText(rules.assignmentApproval)} gold correct</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Accept a label</dt>
              <dd>≥ {ratioText(rules.tweetAcceptance)} agree</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Approve a HIT</dt>
              <dd>≥ {ratioText(rules.hitApproval)} accepted</dd>
            </div>
          </dl>
          <p className="mt-3 text-xs text-slate-500">The rules are the HumAID paper&apos;s; each event can change them when it is created.</p>
          <a href="/api/exports/audit" className={`${buttonClass("secondary")} mt-4`} download>
            Download the full audit log (CSV)
          </a>
        </Card>
      </div>
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card
          title="Prolific"
          description="Where the HITs of Prolific events go (one study per batch; each participant is given one HIT of it). The API token stays on the server (encrypted); this page only says whether one is saved."
          actions={<Badge tone={prolific.mode === "production" ? "red" : "blue"}>{prolific.mode}</Badge>}
          className="lg:col-span-2"
        >
          <ProlificForm current={{ mode: prolific.mode, simulatorUrl: prolific.simulatorUrl, workspaceId: prolific.workspaceId, projectId: prolific.projectId, hasToken: prolific.hasToken, testMode: prolific.testMode, testParticipant: prolific.testParticipant, webhook: prolificWebhook }} />
        </Card>
        <Card
          title="Language model endpoint"
          description="Any OpenAI-compatible chat-completions server that labels tweets from an event's Data tab (LLM labels). The API key stays on the server (encrypted); this page only says whether one is saved. Only tweet texts and the scheme's labels are sent."
          actions={<Badge tone="blue">{llm.model}</Badge>}
        >
          <LlmForm current={llm} />
        </Card>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card title="Users and roles" description="Who can sign in, and what each may do." className="lg:col-span-2">
          <ScrollRegion label="Users">
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1.5">Name</th>
                <th className="py-1.5">Email</th>
                <th className="py-1.5">Role</th>
                <th className="py-1.5" />
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className="border-t border-slate-100">
                  <td className="py-2">{u.name}</td>
                  <td className="py-2">{u.email}</td>
                  <td className="py-2">
                    <Badge tone={u.role === "admin" ? "blue" : "slate"}>{u.role}</Badge> {u.disabled ? <Badge tone="red">disabled</Badge> : null}
                  </td>
                  <td className="py-2 text-right">{u.id === me.id ? <span className="text-xs text-slate-500">you</span> : <UserRowActions userId={u.id} role={u.role} disabled={u.disabled} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </ScrollRegion>
          <dl className="mt-4 grid gap-2 text-xs text-slate-600 sm:grid-cols-2">
            {ROLES.map((r) => (
              <div key={r}>
                <dt className="inline font-medium text-slate-700">{r}:</dt> <dd className="inline">{ROLE_DESCRIPTIONS[r]}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Add a user">
          <CreateUserForm />
        </Card>
      </div>
    </>
  );
}
