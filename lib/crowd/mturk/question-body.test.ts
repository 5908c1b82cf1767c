import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CreateHITCommand, MTurkClient } from "@aws-sdk/client-mturk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import type { PublishHitInput } from "../provider";
import { nastyItems } from "../test-fixtures";
import { createMturkClient, MTURK_REGION } from "./client";
import { buildHitQuestionXml } from "./hit-question";
import { MturkProvider } from "./mturk-provider";
import { fillSlot, questionSlotsOf } from "./question-body";

type Captured = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };

const SECRET = "simulator-secret";
const credentials = { accessKeyId: "SIMULATOR", secretAccessKey: SECRET };

/** The AWS Signature Version 4 of a received request, recomputed from what arrived (headers and body). */
function expectedSignature(req: Captured): { given: string; computed: string } {
  const auth = String(req.headers.authorization);
  const m = /^AWS4-HMAC-SHA256 Credential=[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) throw new Error(`unexpected Authorization header: ${auth}`);
  const [, date, region, service, signedHeaders, given] = m;
  const canonicalHeaders = signedHeaders
    .split(";")
    .map((h) => `${h}:${String(req.headers[h]).trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const [path, query = ""] = req.url.split("?");
  const canonicalRequest = [req.method, path, query, canonicalHeaders, signedHeaders, createHash("sha256").update(req.body).digest("hex")].join("\n");
  const amzDate = String(req.headers["x-amz-date"]);
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, `${date}/${region}/${service}/aws4_request`, createHash("sha256").update(canonicalRequest).digest("hex")].join("\n");
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, date), region), service), "aws4_request");
  return { given, computed: createHmac("sha256", key).update(stringToSign).digest("hex") };
}

// Every kind of character the SDK's JSON writer escapes or passes through: quotes, backslashes, control
// characters, line and paragraph separators, non-ASCII, emoji (surrogate pairs), a lone surrogate.
const AWKWARD = 'q "quoted" \\ back\\slash \n\r\t\b\f \u0001\u001f \u2028\u2029 café 中文 🚨🙏 \ud800 </script> ]]>';

function hitInput(questionXml: string): PublishHitInput {
  return {
    accordHitId: "hit_question_body_1",
    title: "Categorise disaster tweets",
    description: "Choose a category",
    keywords: "tweets",
    rewardCents: 50,
    maxAssignments: 3,
    lifetimeSeconds: 86_400,
    assignmentDurationSeconds: 3_600,
    autoApprovalDelaySeconds: 259_200,
    questionXml,
    qualificationRequirements: [{ qualificationTypeId: "3QUALTYPEID0000000000000000000", comparator: "GreaterThanOrEqualTo", integerValues: [60] }],
  };
}

const createHitFields = { Title: "T", Description: "D", Reward: "0.50", AssignmentDurationInSeconds: 3_600, LifetimeInSeconds: 86_400, MaxAssignments: 3 };

describe("CreateHIT's question written into the request body (question slots)", () => {
  let server: Server;
  let endpoint: string;
  let captured: Captured[];

  beforeEach(async () => {
    captured = [];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        captured.push({ method: req.method as string, url: req.url as string, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
        res.end(JSON.stringify({ HIT: { HITId: "3HITID000000000000000000000000", HITTypeId: "3HITTYPE0000000000000000000000", Expiration: 1_900_000_000 } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const questions = [
    ["a 30-tweet HIT of awkward tweets", buildHitQuestionXml({ items: nastyItems(30), labels: HUMAID_LABELS, submitUrl: "https://www.mturk.com/mturk/externalSubmit" })],
    ["a question of awkward characters", AWKWARD],
  ] as const;

  it.each(questions)("sends the same JSON as the SDK's own writer, with the right length and a valid signature: %s", async (_, question) => {
    const withSlots = createMturkClient({ mode: "simulator", simulatorUrl: endpoint, credentials });
    expect(questionSlotsOf(withSlots)).toBeDefined();
    // The SDK alone: a client made without createMturkClient has no slots.
    const plain = new MTurkClient({ region: MTURK_REGION, endpoint, credentials, maxAttempts: 1 });
    expect(questionSlotsOf(plain)).toBeUndefined();

    for (const client of [withSlots, plain]) {
      const provider = new MturkProvider({ client, mode: "simulator", endpoint });
      const out = await provider.publishHit(hitInput(question));
      expect(out.providerHitId).toBe("3HITID000000000000000000000000");
    }
    const [slotted, sdk] = captured;
    expect(slotted.headers["x-amz-target"]).toBe("MTurkRequesterServiceV20170117.CreateHIT");
    expect(JSON.parse(slotted.body.toString("utf8"))).toEqual(JSON.parse(sdk.body.toString("utf8")));
    expect(JSON.parse(slotted.body.toString("utf8")).Question).toBe(question);
    expect(slotted.body.toString("utf8")).not.toContain("accord-question-slot");
    expect(Number(slotted.headers["content-length"])).toBe(slotted.body.length);
    for (const req of [slotted, sdk]) {
      const { given, computed } = expectedSignature(req);
      expect(given).toBe(computed);
    }
  });

  it("releases a question once its call is over, and a retried call sends it again", async () => {
    const client = createMturkClient({ mode: "simulator", simulatorUrl: endpoint, credentials });
    const slots = questionSlotsOf(client);
    let seen = "";
    await slots?.withSlot("first", async (slot) => {
      seen = slot;
      expect(fillSlot(`{"Question":${JSON.stringify(slot)}}`, JSON.stringify(slot), JSON.stringify("x"))).toBe('{"Question":"x"}');
    });
    // A command carrying a slot whose call is over is refused before anything is sent.
    await expect(client.send(new CreateHITCommand({ ...createHitFields, Question: seen }))).rejects.toThrow(/no longer pending/);
    expect(captured).toHaveLength(0);
    // Sent twice within one call (a throttled CreateHIT goes again): both bodies carry the question.
    await slots?.withSlot("second <q/>", async (slot) => {
      const command = new CreateHITCommand({ ...createHitFields, Question: slot });
      await client.send(command);
      await client.send(command);
    });
    expect(captured.map((c) => JSON.parse(c.body.toString("utf8")).Question)).toEqual(["second <q/>", "second <q/>"]);
  });
});
