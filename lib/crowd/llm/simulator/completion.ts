import type { Rng } from "@/lib/util/random";
import { outOfSchemeLabel, type FaultInjector, type ForcedFault } from "./faults";
import type { LabellingModel } from "./model";
import { chosenTool, parseItems, schemeLabels } from "./prompt-format";
import type { ChatRequest } from "./protocol";
import { estimateTokens, promptTokens } from "./tokens";

export interface ChatCompletionBody {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: Array<{
    index: number;
    message: {
      role: "assistant";
      content: string | null;
      refusal: null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    };
    logprobs: null;
    finish_reason: "stop" | "length" | "tool_calls";
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface Completion {
  body: ChatCompletionBody;
  stats: { items: number; malformed: number; outOfScheme: number };
}

/** Breaks a valid JSON answer the way models do: cut short (finish_reason "length"), or wrapped in chat prose. */
function malform(json: string, kind: "truncated" | "prose"): { text: string; finish: "length" | "stop" } {
  if (kind === "truncated") return { text: json.slice(0, Math.max(1, Math.floor(json.length / 2))), finish: "length" };
  return { text: `Sure! Here are the labels for each tweet:\n\`\`\`json\n${json}\n\`\`\``, finish: "stop" };
}

/**
 * Answers a chat-completions request: each of the `n` choices labels every item of the prompt with the model, as
 * `{"labels":[{"id","label"}]}`: the message content, or the arguments of a call of the chosen tool.
 */
export function answerCompletion(
  req: ChatRequest,
  ctx: { model: LabellingModel; callRng: Rng; faults: FaultInjector; forced: ForcedFault | null; id: string; created: number },
): Completion {
  const labels = schemeLabels(req);
  const items = parseItems(req);
  const tool = chosenTool(req);
  const temperature = req.temperature ?? 1; // OpenAI's default
  const stats = { items: 0, malformed: 0, outOfScheme: 0 };
  let completionTokens = 0;
  const choices = Array.from({ length: req.n ?? 1 }, (_, index): ChatCompletionBody["choices"][number] => {
    const answers = items.map((item) => {
      let label = ctx.model.label(item.text, labels, temperature, ctx.callRng);
      if (ctx.faults.outOfScheme(ctx.forced)) {
        label = outOfSchemeLabel(label, labels, ctx.callRng);
        stats.outOfScheme++;
      }
      return { id: item.id, label };
    });
    stats.items += items.length;
    const json = JSON.stringify({ labels: answers });
    const broken = ctx.faults.malformed(ctx.forced);
    if (broken) stats.malformed++;
    const { text, finish } = broken ? malform(json, broken) : { text: json, finish: "stop" as const };
    completionTokens += estimateTokens(text) + 1;
    if (!tool) return { index, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: finish };
    const named = typeof req.tool_choice === "object";
    return {
      index,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [{ id: `call_${ctx.id.slice(-12)}${index}`, type: "function", function: { name: tool.function.name, arguments: text } }],
      },
      logprobs: null,
      finish_reason: finish === "length" ? "length" : named ? "stop" : "tool_calls",
    };
  });
  const prompt = promptTokens(req);
  return {
    body: {
      id: ctx.id,
      object: "chat.completion",
      created: ctx.created,
      model: req.model,
      system_fingerprint: "fp_accord_sim",
      choices,
      usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens },
    },
    stats,
  };
}
