import type { LlmClient } from "./client";
import { parseAnswer } from "./output";
import { buildLabelRequest, type PromptExample, type SchemeLabel } from "./prompt";
import type { PromptItem } from "./simulator/prompt-format";

/**
 * One batch of items through the model: one call, then one follow-up call for the items it answered outside the
 * scheme (or not at all); those still without a label of the scheme get null (no answer). `onUsage` hears each
 * answered call's tokens at once (they are billed even when a later call of the batch fails).
 */
export async function labelItems(
  client: LlmClient,
  scheme: readonly SchemeLabel[],
  examples: readonly PromptExample[],
  items: readonly PromptItem[],
  { onUsage, signal }: { onUsage?: (promptTokens: number, completionTokens: number) => Promise<void> | void; signal?: AbortSignal } = {},
): Promise<Map<string, string | null>> {
  const values = scheme.map((l) => l.value);
  const textOf = new Map(items.map((i) => [i.id, i.text]));
  const ask = async (ids: string[]) => {
    const answer = await client.complete(buildLabelRequest(scheme, examples, ids.map((id) => ({ id, text: textOf.get(id) as string }))), signal);
    await onUsage?.(answer.promptTokens, answer.completionTokens);
    return parseAnswer(answer.text, ids, values);
  };
  const first = await ask(items.map((i) => i.id));
  const labels = new Map(first.labels);
  if (first.invalid.length > 0) for (const [id, label] of (await ask(first.invalid)).labels) labels.set(id, label);
  return new Map(items.map((i) => [i.id, labels.get(i.id) ?? null]));
}
