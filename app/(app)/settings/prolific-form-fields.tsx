"use client";

import { Field, TextInput } from "@/components/ui/field";
import { formatDateTime } from "@/lib/text/format";
import type { ProlificWebhookStatus } from "@/lib/crowd/prolific/webhook-status";

/** Webhooks: whether a signing secret is stored (never the secret), the subscription, and a write-only secret input. */
export function ProlificWebhookFields({ webhook, errors }: { webhook: ProlificWebhookStatus; errors?: string[] }) {
  const status = webhook.subscription
    ? `Subscribed: Prolific delivers status changes to ${webhook.subscription.targetUrl} since ${formatDateTime(webhook.subscription.since)}.`
    : webhook.pollingOnly
      ? "Polling only (needs an https ACCORD_PUBLIC_URL): Prolific cannot reach this server, so Accord reads Prolific's state itself."
      : "Not subscribed yet: Accord subscribes when it next talks to Prolific; until then it polls.";
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="prolific-webhooks">
      <div className="space-y-1 text-sm">
        <p className="font-medium text-slate-700">Webhooks</p>
        <p className="text-slate-600" data-testid="prolific-webhook-status">{status}</p>
        <p className="text-slate-600" data-testid="prolific-webhook-secret-state">{webhook.hasSecret ? "A webhook signing secret is stored." : "No webhook signing secret is stored."}</p>
      </div>
      <Field label="Webhook secret" name="webhookSecret" id="prolific-webhookSecret" hint={webhook.hasSecret ? "Leave empty to keep the stored secret; it is never shown again." : "Only if the workspace's secret was created outside Accord (Accord otherwise creates or adopts one)."} errors={errors}>
        <TextInput id="prolific-webhookSecret" name="webhookSecret" type="password" autoComplete="new-password" placeholder={webhook.hasSecret ? "•••••••• (kept)" : ""} errors={errors} />
      </Field>
    </div>
  );
}

/** Test mode: HITs go out as Prolific test studies for the workspace's test participant, created from the email. */
export function ProlificTestModeFields({ testMode, participant, email, errors }: { testMode: boolean; participant: { id: string; email: string } | null; email?: string; errors?: string[] }) {
  return (
    <div className="grid gap-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-3 md:grid-cols-2">
      <label className="flex items-start gap-2 text-sm text-amber-900">
        <input type="checkbox" name="testMode" defaultChecked={testMode} className="mt-0.5" />
        <span>
          Prolific test mode: publish HITs and qualification screenings as test studies that only the test participant can take (Prolific&apos;s support enables test participants per workspace).
        </span>
      </label>
      <Field
        label="Test participant email"
        name="testParticipantEmail"
        id="prolific-testParticipantEmail"
        hint={participant ? `Test participant ${participant.email} (${participant.id}). A new email creates another (Prolific allows one per researcher).` : "Saving creates the test participant with this email (not already registered with Prolific)."}
        errors={errors}
      >
        <TextInput id="prolific-testParticipantEmail" name="testParticipantEmail" type="email" spellCheck={false} defaultValue={email ?? ""} errors={errors} />
      </Field>
    </div>
  );
}
