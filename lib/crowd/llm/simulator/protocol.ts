import { z } from "zod";

/** The parts of OpenAI's chat-completions request the simulator reads; other fields are accepted and ignored. */
const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const chatMessageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  name: z.string().optional(),
  tool_call_id: z.string().optional(),
});

const jsonSchemaFormat = z.looseObject({
  type: z.literal("json_schema"),
  json_schema: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

const functionTool = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  temperature: z.number().min(0).max(2).nullable().optional(),
  n: z.number().int().min(1).max(16).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  response_format: z
    .union([z.looseObject({ type: z.literal("text") }), z.looseObject({ type: z.literal("json_object") }), jsonSchemaFormat])
    .optional(),
  tools: z.array(functionTool).optional(),
  tool_choice: z
    .union([z.enum(["none", "auto", "required"]), z.looseObject({ type: z.literal("function"), function: z.object({ name: z.string() }) })])
    .optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export class LlmSimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "LlmSimError";
  }

  body(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** A zod failure as OpenAI reports a bad request: 400 invalid_request_error naming the first offending parameter. */
export function invalidRequest(error: z.ZodError): LlmSimError {
  const issue = error.issues[0];
  const param = issue?.path.map(String).join(".") || null;
  return new LlmSimError(400, `Invalid value for '${param ?? "body"}': ${issue?.message ?? "invalid request"}.`, "invalid_request_error", "invalid_value", param);
}

export const missingKey = () =>
  new LlmSimError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error");

export const wrongKey = (key: string) =>
  new LlmSimError(401, `Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-2)}.`, "invalid_request_error", "invalid_api_key");

export const modelNotFound = (model: string) =>
  new LlmSimError(404, `The model \`${model}\` does not exist or you do not have access to it.`, "invalid_request_error", "model_not_found", "model");

export const rateLimited = (retryAfterSeconds: number) =>
  new LlmSimError(429, `Rate limit reached for requests. Please try again in ${retryAfterSeconds}s.`, "requests", "rate_limit_exceeded", null, {
    "retry-after": String(retryAfterSeconds),
  });

export const serverError = () =>
  new LlmSimError(500, "The server had an error while processing your request. Sorry about that!", "server_error");

/** The text of a message's content (string, or the text parts of an array). */
export function messageText(m: ChatMessage): string {
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => p.text ?? "").join("\n");
  return "";
}
