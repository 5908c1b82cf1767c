"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { saveProlificSettings } from "@/lib/actions/settings";
import type { ProlificWebhookStatus } from "@/lib/crowd/prolific/webhook-status";
import { ProlificTestModeFields, ProlificWebhookFields } from "./prolific-form-fields";
import { ProductionConfirm } from "./production-confirm";

type Current = {
  mode: "simulator" | "production";
  simulatorUrl: string;
  workspaceId: string;
  projectId: string;
  hasToken: boolean;
  testMode: boolean;
  testParticipant: { id: string; email: string } | null;
  webhook: ProlificWebhookStatus;
};

/**
 * Prolific: mode, the simulator's address, workspace and project ids, the API token and webhook secret (write-only:
 * the page only says whether one is saved; leave the field empty to keep it), the webhook subscription's status and
 * test mode with its test participant. Saving checks the connection.
 */
export function ProlificForm({ current }: { current: Current }) {
  const [state, action, pending] = useActionState(saveProlificSettings, initialActionState);
  const v = state.values ?? {};
  const e = state.fieldErrors ?? {};
  const [mode, setMode] = useState<string>(v.mode ?? current.mode);
  return (
    <form key={formKey(state)} action={action} className="space-y-4" noValidate data-testid="prolific-form">
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Prolific mode" name="mode" id="prolific-mode" hint="The simulator costs nothing: its simulated participants work on Accord's own study page. Production pays real participants from the workspace's balance." errors={e.mode}>
        <SelectInput id="prolific-mode" name="mode" defaultValue={mode} onChange={(ev) => setMode(ev.target.value)}>
          <option value="simulator">Simulator (local, no money)</option>
          <option value="production">Prolific production (real money)</option>
        </SelectInput>
      </Field>
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Simulator URL" name="simulatorUrl" id="prolific-simulatorUrl" hint="npm start runs the simulator here when the address is on this machine." errors={e.simulatorUrl}>
          <TextInput id="prolific-simulatorUrl" name="simulatorUrl" inputMode="url" spellCheck={false} defaultValue={v.simulatorUrl ?? current.simulatorUrl} errors={e.simulatorUrl} />
        </Field>
        <Field label="API token" name="token" id="prolific-token" hint={current.hasToken ? "A token is saved. Leave empty to keep it; it is never shown again." : "No token saved (the simulator needs none). Prolific: Settings → API tokens."} errors={e.token}>
          <TextInput id="prolific-token" name="token" type="password" autoComplete="new-password" placeholder={current.hasToken ? "•••••••• (kept)" : ""} errors={e.token} />
        </Field>
        <Field label="Workspace id" name="workspaceId" id="prolific-workspaceId" hint="Empty: the token's first workspace." errors={e.workspaceId}>
          <TextInput id="prolific-workspaceId" name="workspaceId" spellCheck={false} defaultValue={v.workspaceId ?? current.workspaceId} errors={e.workspaceId} />
        </Field>
        <Field label="Project id" name="projectId" id="prolific-projectId" hint="Empty: the workspace's first project." errors={e.projectId}>
          <TextInput id="prolific-projectId" name="projectId" spellCheck={false} defaultValue={v.projectId ?? current.projectId} errors={e.projectId} />
        </Field>
      </div>
      <ProlificWebhookFields webhook={current.webhook} errors={e.webhookSecret} />
      <ProlificTestModeFields testMode={v.testMode === undefined ? current.testMode : v.testMode === "on"} participant={current.testParticipant} email={v.testParticipantEmail} errors={e.testParticipantEmail} />
      {mode === "production" ? (
        <ProductionConfirm errors={e.confirmProduction}>
          I understand that production Prolific pays real participants with real money from the workspace&apos;s balance.
        </ProductionConfirm>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving and checking…" : "Save and check connection"}
      </Button>
    </form>
  );
}
