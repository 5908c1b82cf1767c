import type { MTurkClient } from "@aws-sdk/client-mturk";

/**
 * CreateHIT's Question is most of its request (a 30-tweet HIT's HTMLQuestion is about 56 KB), and the SDK's JSON
 * writer escapes strings one character at a time in JavaScript, at every throttled retry again; JSON.stringify does
 * the same escaping natively, about three times cheaper (README, benchmark table).
 *
 * So the question goes to the SDK as a short slot name, and a middleware of the build step puts the JSON string of
 * the real question in the slot's place in the request body — before the SDK sets the Content-Length and signs
 * the request (the finalize step), so both cover the body that is sent. The JSON is equivalent to the SDK's own
 * (a test compares the two, and checks the signature against the body sent).
 */
const SLOT_PREFIX = "accord-question-slot-";

export type QuestionSlots = {
  /** Runs `fn` with a slot name standing for `question` (valid until `fn` settles, retries included). */
  withSlot<T>(question: string, fn: (slot: string) => Promise<T>): Promise<T>;
};

const encoder = new TextEncoder();
const slotsByClient = new WeakMap<MTurkClient, QuestionSlots>();

/**
 * The slots of a client made by createMturkClient, which adds the middleware before the client's first call (the
 * client caches each command's middleware at its first call: one added later would not run, and the slot name
 * would be sent as the question). Other clients have none, and their questions go to the SDK as they are.
 */
export function questionSlotsOf(client: MTurkClient): QuestionSlots | undefined {
  return slotsByClient.get(client);
}

/** Adds the middleware to a new `client` (before its first call) and returns its slots. */
export function addQuestionSlots(client: MTurkClient): QuestionSlots {
  const questions = new Map<string, string>();
  let next = 0;
  client.middlewareStack.add(
    (nextHandler) => async (args) => {
      const slot = (args.input as { Question?: unknown }).Question;
      if (typeof slot === "string" && slot.startsWith(SLOT_PREFIX)) {
        const question = questions.get(slot);
        if (question === undefined) throw new Error(`The question of ${slot} is no longer pending.`);
        const request = args.request as { body?: unknown };
        request.body = fillSlot(request.body, JSON.stringify(slot), JSON.stringify(question));
      }
      return nextHandler(args);
    },
    // Highest priority in the build step: before the content length is computed; signing comes after (finalize).
    { step: "build", priority: "high", name: "accordQuestionSlot" },
  );
  const slots: QuestionSlots = {
    async withSlot(question, fn) {
      const slot = `${SLOT_PREFIX}${next++}`;
      questions.set(slot, question);
      try {
        return await fn(slot);
      } finally {
        questions.delete(slot);
      }
    },
  };
  slotsByClient.set(client, slots);
  return slots;
}

/** Replaces the JSON string `quotedSlot` in a JSON body (bytes or text) with `quotedValue`, once. */
export function fillSlot(body: unknown, quotedSlot: string, quotedValue: string): Uint8Array | string {
  if (typeof body === "string") {
    const at = body.indexOf(quotedSlot);
    if (at < 0) throw new Error("The question's slot is not in the request body.");
    return body.slice(0, at) + quotedValue + body.slice(at + quotedSlot.length);
  }
  if (!(body instanceof Uint8Array)) throw new Error("The request body is neither bytes nor text.");
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const at = bytes.indexOf(quotedSlot); // the slot is ASCII: its UTF-8 bytes are its characters
  if (at < 0) throw new Error("The question's slot is not in the request body.");
  return Buffer.concat([bytes.subarray(0, at), encoder.encode(quotedValue), bytes.subarray(at + quotedSlot.length)]);
}
