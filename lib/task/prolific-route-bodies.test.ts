import { describe, expect, it } from "vitest";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { prolificScreeningHandlers, prolificTaskHandlers } from "./prolific-route";

// Malformed bodies are refused before the page looks at the database or asks Prolific: the deps must not be reached.
const unreachable = () => {
  throw new Error("the page went on with a malformed body");
};
const deps = { db: unreachable, provider: async () => unreachable() };

const IDS = "PROLIFIC_PID=6000000000000000000000ab&STUDY_ID=6000000000000000000000cd&SESSION_ID=6000000000000000000000ef";
const multipart = `--b\r\nContent-Disposition: form-data; name="PROLIFIC_PID"\r\n\r\n6000000000000000000000ab\r\n--b--\r\n`;

describe("Prolific participant pages answer a malformed body with 400 and a page that says so", () => {
  for (const [name, handlers] of [
    ["task", prolificTaskHandlers(deps)],
    ["screening", prolificScreeningHandlers(deps)],
  ] as const) {
    it(`/prolific/${name}`, async () => {
      const post = (body: string, contentType: string) => handlers.POST(new Request(`http://x/prolific/${name}`, { method: "POST", body, headers: { "content-type": contentType } }));
      for (const [body, contentType, says] of [
        [multipart.slice(0, 50), "multipart/form-data; boundary=b", "malformed or cut short"],
        [JSON.stringify({ PROLIFIC_PID: "6000000000000000000000ab" }), "application/json", "Expected a form"],
        [IDS, "text/plain", "Expected a form"],
      ]) {
        const res = await post(body!, contentType!);
        expect(res.status, `${contentType}`).toBe(400);
        expect(res.headers.get("content-type")).toContain("text/html");
        const page = await res.text();
        expect(page).toContain("The answers could not be read");
        expect(page).toContain(says);
        expect(page).not.toContain("<form");
      }
      const large = await post(`${IDS}&pad=${"x".repeat(70_000)}`, "application/x-www-form-urlencoded");
      expect(large.status).toBe(413);
    });
  }
});

// A well-formed form whose ids are missing or not Prolific's shape is refused before Prolific or the database is asked.
const untouchable = <T extends object>(what: string) =>
  new Proxy({} as T, {
    get(_, key) {
      if (key === "then") return undefined; // not a promise
      throw new Error(`${what}.${String(key)} was used for a refused body`);
    },
  });
const idDeps = { db: () => untouchable<Db>("db"), provider: async () => untouchable<ProlificProvider>("provider") };

describe("Prolific participant pages answer every other unusable body with 4xx and a message, never 500", () => {
  for (const [name, handlers] of [
    ["task", prolificTaskHandlers(idDeps)],
    ["screening", prolificScreeningHandlers(idDeps)],
  ] as const) {
    it(`/prolific/${name}`, async () => {
      const url = `http://x/prolific/${name}`;
      const cases: [string, Request, number, string][] = [
        ["no content type", new Request(url, { method: "POST", body: new TextEncoder().encode(IDS) }), 400, "without a content type"],
        ["multipart without a boundary", new Request(url, { method: "POST", body: multipart, headers: { "content-type": "multipart/form-data" } }), 400, "malformed or cut short"],
        ["an XML body", new Request(url, { method: "POST", body: "<a/>", headers: { "content-type": "application/xml" } }), 400, "Expected a form"],
        ["a form without the ids", new Request(url, { method: "POST", body: "item-1=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), 400, "This link is incomplete"],
        ["ids that are not Prolific's", new Request(url, { method: "POST", body: `${IDS.replace("6000000000000000000000ab", "<script>")}&qualification=q`, headers: { "content-type": "application/x-www-form-urlencoded" } }), 400, "This link is incomplete"],
        ["an empty body", new Request(url, { method: "POST", body: "", headers: { "content-type": "application/x-www-form-urlencoded" } }), 400, "This link is incomplete"],
      ];
      const broken = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("PROLIFIC_PID=6000"));
          controller.error(new Error("aborted"));
        },
      });
      cases.push(["a body that breaks off on the way", new Request(url, { method: "POST", body: broken, duplex: "half", headers: { "content-type": "application/x-www-form-urlencoded" } } as RequestInit), 400, "did not arrive whole"]);
      for (const [what, request, status, says] of cases) {
        const res = await handlers.POST(request);
        expect(res.status, what).toBe(status);
        expect(res.headers.get("content-type"), what).toContain("text/html");
        expect(await res.text(), what).toContain(says);
      }
    });
  }
});
