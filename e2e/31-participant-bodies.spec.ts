import net from "node:net";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./env";

// The public participant pages (and Prolific's webhook) against the started server: a body that is not a usable form
// gets a 4xx with a message a participant can read, never a 500.

const IDS = "PROLIFIC_PID=6000000000000000000000ab&STUDY_ID=6000000000000000000000cd&SESSION_ID=6000000000000000000000ef";
const multipart = `--b\r\nContent-Disposition: form-data; name="PROLIFIC_PID"\r\n\r\n6000000000000000000000ab\r\n--b--\r\n`;

for (const path of ["/prolific/task", "/prolific/screening"]) {
  test(`${path}: malformed bodies answer 400 with a message`, async ({ request }) => {
    const cases: [string, string | Buffer, Record<string, string>, string][] = [
      ["truncated multipart", multipart.slice(0, 50), { "content-type": "multipart/form-data; boundary=b" }, "malformed or cut short"],
      ["multipart without a boundary", multipart, { "content-type": "multipart/form-data" }, "malformed or cut short"],
      ["JSON", JSON.stringify({ PROLIFIC_PID: "6000000000000000000000ab" }), { "content-type": "application/json" }, "Expected a form"],
      ["plain text", IDS, { "content-type": "text/plain" }, "Expected a form"],
      ["a form without the ids", "item-1=x", { "content-type": "application/x-www-form-urlencoded" }, "This link is incomplete"],
    ];
    for (const [what, data, headers, says] of cases) {
      const res = await request.post(path, { data, headers, maxRedirects: 0 });
      expect(res.status(), what).toBe(400);
      expect(res.headers()["content-type"], what).toContain("text/html");
      expect(await res.text(), what).toContain(says);
    }
  });
}

test("a participant body cut off on the wire gets no 500, and the server goes on answering", async ({ request }) => {
  const answer = await new Promise<string>((resolve) => {
    const socket = net.connect(E2E_PORT, "127.0.0.1", () => {
      socket.write(`POST /prolific/task HTTP/1.1\r\nHost: 127.0.0.1:${E2E_PORT}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n${IDS.slice(0, 40)}`);
      socket.end(); // the rest never comes
    });
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
  });
  // Either a 4xx or the connection closed without an answer; never Accord's 500.
  expect(answer).not.toMatch(/^HTTP\/1\.1 5\d\d/);
  const after = await request.get(`/prolific/task?${IDS}`);
  expect(after.status()).toBeLessThan(500);
});

test("Prolific's webhook: a body that is not JSON or not signed is refused with a 4xx/503, never a 500", async ({ request }) => {
  for (const [data, headers] of [
    ["{not json", { "content-type": "application/json", "x-prolific-request-signature": "x", "x-prolific-request-timestamp": "1", "x-event-id": "e" }],
    ["a=1", { "content-type": "application/x-www-form-urlencoded" }],
  ] as const) {
    const res = await request.post("/api/prolific/webhook", { data, headers: { ...headers } });
    expect(res.status()).toBeGreaterThanOrEqual(400);
    expect(res.status()).not.toBe(500);
  }
});
