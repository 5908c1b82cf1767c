import { z } from "zod";
import { LlmSimError, messageText, type ChatRequest } from "./protocol";

/**
 * The prompt format the simulator understands (README "Prompt format"): the LAST user message holds the items as a
 * JSON array of `{ "id", "text" }` between a line `<<<ITEMS` and a line `ITEMS>>>`. JSON escaping keeps a tweet's
 * text inside its string, so no tweet can end the block or add an item.
 */
export const ITEMS_OPEN = "<<<ITEMS";
export const ITEMS_CLOSE = "ITEMS>>>";

export interface PromptItem {
  id: string;
  text: string;
}

const itemsSchema = z.array(z.object({ id: z.string().min(1), text: z.string() })).min(1);

const formatError = (message: string) => new LlmSimError(400, message, "invalid_request_error", "simulator_prompt_format", "messages");

/** Formats items the way the simulator reads them (what a prompt builder puts in its user message). */
export function formatItemsBlock(items: PromptItem[]): string {
  return `${ITEMS_OPEN}\n${JSON.stringify(items.map((i) => ({ id: i.id, text: i.text })))}\n${ITEMS_CLOSE}`;
}

export function parseItems(req: ChatRequest): PromptItem[] {
  const user = [...req.messages].reverse().find((m) => m.role === "user");
  const text = user ? messageText(user) : "";
  const lines = text.split(/\r?\n/);
  const open = lines.findIndex((l) => l.trim() === ITEMS_OPEN);
  const close = lines.findLastIndex((l) => l.trim() === ITEMS_CLOSE);
  if (open < 0 || close <= open) throw formatError(`The simulator found no items: put them in the last user message between a line "${ITEMS_OPEN}" and a line "${ITEMS_CLOSE}".`);
  let raw: unknown;
  try {
    raw = JSON.parse(lines.slice(open + 1, close).join("\n"));
  } catch {
    throw formatError("The items block is not valid JSON (an array of {\"id\", \"text\"}).");
  }
  const parsed = itemsSchema.safeParse(raw);
  if (!parsed.success) throw formatError("The items block must be a non-empty JSON array of {\"id\": string, \"text\": string}.");
  if (new Set(parsed.data.map((i) => i.id)).size !== parsed.data.length) throw formatError("The items block repeats an id.");
  return parsed.data;
}

/** The first enum of strings in a JSON schema, preferring one under a property named "label" (depth first). */
export function enumInSchema(schema: unknown): string[] | null {
  let fallback: string[] | null = null;
  const visit = (node: unknown, key: string | null): string[] | null => {
    if (Array.isArray(node)) {
      for (const x of node) {
        const r = visit(x, null);
        if (r) return r;
      }
      return null;
    }
    if (!node || typeof node !== "object") return null;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.enum) && o.enum.length > 0 && o.enum.every((x) => typeof x === "string")) {
      if (key === "label") return o.enum as string[];
      fallback ??= o.enum as string[];
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === "enum") continue;
      const r = visit(v, k);
      if (r) return r;
    }
    return null;
  };
  return visit(schema, null) ?? fallback;
}

const LABELS_LINE = /^\s*Labels:\s*(\[.*\])\s*$/m;

/**
 * The scheme's labels: the enum of the response's JSON schema, else of the (chosen or only) tool's parameters, else a
 * line `Labels: ["a", "b"]` (a JSON array) in a system, developer or user message.
 */
export function schemeLabels(req: ChatRequest): string[] {
  if (req.response_format?.type === "json_schema") {
    const found = enumInSchema(req.response_format.json_schema.schema);
    if (found) return found;
  }
  const tool = chosenTool(req);
  if (tool) {
    const found = enumInSchema(tool.function.parameters);
    if (found) return found;
  }
  for (const m of req.messages) {
    if (m.role === "assistant" || m.role === "tool") continue;
    const match = LABELS_LINE.exec(messageText(m));
    if (!match) continue;
    try {
      const arr = JSON.parse(match[1]) as unknown;
      if (Array.isArray(arr) && arr.length > 0 && arr.every((x) => typeof x === "string")) return arr as string[];
    } catch {
      // not a JSON array: keep looking
    }
  }
  throw formatError('The simulator found no labels: give them as an enum in the JSON schema or tool parameters, or as a line `Labels: ["a", "b"]`.');
}

/** The tool the answer is a call of: the one tool_choice names, else the first, unless tool_choice is "none". */
export function chosenTool(req: ChatRequest): NonNullable<ChatRequest["tools"]>[number] | null {
  if (!req.tools?.length || req.tool_choice === "none") return null;
  const tc = req.tool_choice;
  if (tc && typeof tc === "object") {
    const named = req.tools.find((t) => t.function.name === tc.function.name);
    if (!named) throw new LlmSimError(400, `tool_choice names the function '${tc.function.name}', which is not among the tools.`, "invalid_request_error", null, "tool_choice");
    return named;
  }
  return req.tools[0];
}
