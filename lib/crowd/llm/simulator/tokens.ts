import type { ChatRequest } from "./protocol";
import { messageText } from "./protocol";

/**
 * A deterministic token ESTIMATE, not a real tokenizer: one token per 4 characters (rounded up), as OpenAI's rule of
 * thumb for English. Good enough for a bill that is stable across runs; real models count differently.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Prompt tokens: each message's text plus 4 for its framing, 3 for the reply's priming, plus tool and schema JSON. */
export function promptTokens(req: ChatRequest): number {
  let n = 3;
  for (const m of req.messages) n += 4 + estimateTokens(messageText(m)) + (m.name ? 1 : 0);
  if (req.tools) n += estimateTokens(JSON.stringify(req.tools));
  if (req.response_format?.type === "json_schema") n += estimateTokens(JSON.stringify(req.response_format.json_schema));
  return n;
}
