process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
import { fork } from "node:child_process";
import http from "node:http";
import { CreateHITCommand, MTurkClient, ListAssignmentsForHITCommand } from "@aws-sdk/client-mturk";
import { AwsJson1_1Protocol, JsonCodec } from "@aws-sdk/core/protocols";
import { createMturkClient } from "@/lib/crowd/mturk/client";
import { buildHitQuestionXml } from "@/lib/crowd/mturk/hit-question";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
class P extends AwsJson1_1Protocol { constructor(s: any) { super({ ...s, jsonCodec: new JsonCodec({ timestampFormat: { useTrait: true, default: 7 }, jsonName: false }) }); } }
if (process.argv[2] === "child") {
  const body = JSON.stringify({ HIT: { HITId: "X", HITTypeId: "Y", CreationTime: 1700000000.5, Expiration: 1700000000 } });
  http.createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/x-amz-json-1.1" }); res.end(body); }); }).listen(0, "127.0.0.1", function (this: http.Server) { process.send!((this.address() as any).port); });
} else {
  const child = fork(process.argv[1], ["child"], { execArgv: process.execArgv });
  const port: number = await new Promise((r) => child.once("message", r as any));
  const a = createMturkClient({ mode: "simulator", simulatorUrl: `http://127.0.0.1:${port}` });
  const b = new MTurkClient({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "A", secretAccessKey: "B" }, cacheMiddleware: true, maxAttempts: 8, retryMode: "standard", protocol: P as any });
  const items = Array.from({ length: 30 }, (_, i) => ({ itemId: "cm" + Math.random().toString(36).slice(2, 12).padEnd(23, "q") + String(i).padStart(2, "0"), tweetId: "1234567890123456789", text: "RT @someone: Flooding 🚨 on the main road near the bridge, cars stuck, please avoid the area #flood #help http://t.co/abcdefghij" }));
  const q = buildHitQuestionXml({ items, labels: HUMAID_LABELS as any, submitUrl: `http://127.0.0.1:${port}/mturk/externalSubmit` });
  const n = Number(process.argv[2] ?? 400);
  const cmd = (i: number) => new CreateHITCommand({ Question: q, Title: "t", Description: "d", Reward: "0.60", AssignmentDurationInSeconds: 3600, LifetimeInSeconds: 86400, MaxAssignments: 3, UniqueRequestToken: "tok" + i });
  const ra = await a.send(cmd(0)), rb = await b.send(cmd(0));
  console.log(JSON.stringify(ra.HIT), JSON.stringify(rb.HIT));
  const run = async (c: MTurkClient) => { const c0 = process.cpuUsage(); for (let i = 0; i < n; i++) await c.send(cmd(i)); const u = process.cpuUsage(c0); return (u.user + u.system) / 1000 / n; };
  await run(a); await run(b);
  const r: Record<string, number[]> = { a: [], b: [] };
  for (let k = 0; k < 4; k++) { r.a.push(await run(a)); r.b.push(await run(b)); }
  console.log(`default codec ${r.a.map((x) => x.toFixed(3)).join(" ")} ms/call; JsonCodec ${r.b.map((x) => x.toFixed(3)).join(" ")} ms/call`);
  child.kill(); process.exit(0);
}
