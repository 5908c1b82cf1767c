import { describe, expect, it } from "vitest";
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
