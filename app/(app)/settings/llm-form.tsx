"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { saveLlmSettingsAction } from "@/lib/actions/llm";

type Current = { baseUrl: string; model: string; temperature: number; concurrency: number; passes: number; examples: number; timeoutSeconds: number; inputPricePerMillion: number; outputPricePerMillion: number; hasKey: boolean };

/** The language model endpoint (issue 32): any OpenAI-compatible server; the API key is write-only. Saving checks the connection. */
export function LlmForm({ current }: { current: Current }) {
  const [state, action, pending] = useActionState(saveLlmSettingsAction, initialActionState);
  const v = state.values ?? {};
  const e = state.fieldErrors ?? {};
  const text = (name: keyof Current) => v[name] ?? String(current[name]);
  return (
    <form key={formKey(state)} action={action} className="space-y-4" noValidate data-testid="llm-form">
      <FormMessage ok={state.ok} message={state.message} />
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Base URL" name="baseUrl" id="llm-baseUrl" hint="OpenAI: https://api.openai.com/v1 · Ollama: http://127.0.0.1:11434/v1 · vLLM: http://127.0.0.1:8000/v1 · llama.cpp: http://127.0.0.1:8080/v1. npm start runs the LLM simulator here when the address is on this machine." errors={e.baseUrl}>
          <TextInput id="llm-baseUrl" name="baseUrl" inputMode="url" spellCheck={false} defaultValue={text("baseUrl")} errors={e.baseUrl} />
        </Field>
        <Field label="Model" name="model" id="llm-model" errors={e.model}>
          <TextInput id="llm-model" name="model" spellCheck={false} defaultValue={text("model")} errors={e.model} />
        </Field>
        <Field label="API key" name="apiSecretKey" id="llm-apiSecretKey" hint={current.hasKey ? "A key is saved. Leave empty to keep it; it is never shown again." : "No key saved: the simulator's default key is sent (local servers accept any)."} errors={e.apiSecretKey}>
          <TextInput id="llm-apiSecretKey" name="apiSecretKey" type="password" autoComplete="new-password" placeholder={current.hasKey ? "•••••••• (kept)" : ""} errors={e.apiSecretKey} />
        </Field>
        <Field label="Temperature" name="temperature" id="llm-temperature" hint="0 to 2; 0 answers the same tweet the same way." errors={e.temperature}>
          <TextInput id="llm-temperature" name="temperature" inputMode="decimal" defaultValue={text("temperature")} errors={e.temperature} />
        </Field>
        <Field label="Concurrency" name="concurrency" id="llm-concurrency" hint="Calls in flight at once." errors={e.concurrency}>
          <TextInput id="llm-concurrency" name="concurrency" inputMode="numeric" defaultValue={text("concurrency")} errors={e.concurrency} />
        </Field>
        <Field label="Passes per tweet" name="passes" id="llm-passes" hint="More than 1 only makes sense at a temperature above 0: each pass counts as one judgment." errors={e.passes}>
          <TextInput id="llm-passes" name="passes" inputMode="numeric" defaultValue={text("passes")} errors={e.passes} />
        </Field>
        <Field label="Gold examples in the prompt" name="examples" id="llm-examples" hint="One per label; they are not graded in that run." errors={e.examples}>
          <TextInput id="llm-examples" name="examples" inputMode="numeric" defaultValue={text("examples")} errors={e.examples} />
        </Field>
        <Field label="Timeout (seconds per call)" name="timeoutSeconds" id="llm-timeoutSeconds" errors={e.timeoutSeconds}>
          <TextInput id="llm-timeoutSeconds" name="timeoutSeconds" inputMode="numeric" defaultValue={text("timeoutSeconds")} errors={e.timeoutSeconds} />
        </Field>
        <Field label="Price per million input tokens" name="inputPricePerMillion" id="llm-inputPrice" hint="In the event's crowd currency (USD for MTurk and in-house)." errors={e.inputPricePerMillion}>
          <TextInput id="llm-inputPrice" name="inputPricePerMillion" inputMode="decimal" defaultValue={text("inputPricePerMillion")} errors={e.inputPricePerMillion} />
        </Field>
        <Field label="Price per million output tokens" name="outputPricePerMillion" id="llm-outputPrice" errors={e.outputPricePerMillion}>
          <TextInput id="llm-outputPrice" name="outputPricePerMillion" inputMode="decimal" defaultValue={text("outputPricePerMillion")} errors={e.outputPricePerMillion} />
        </Field>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving and checking…" : "Save and check connection"}
      </Button>
    </form>
  );
}
