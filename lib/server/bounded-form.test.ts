import { describe, expect, it } from "vitest";
import { readBoundedForm } from "./bounded-form";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** A body streamed in 64 KB pieces, without a Content-Length; counts the pieces the reader pulled. */
function streamed(totalBytes: number): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  let pulls = 0;
  const piece = new TextEncoder().encode("a=".padEnd(65_536, "x"));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      if (sent >= totalBytes) return controller.close();
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { body, pulled: () => pulls };
}

describe("a form read with a size cap", () => {
  it("gives back a small form", async () => {
    const read = await readBoundedForm(new Request("http://x/p", { method: "POST", headers: FORM, body: "PROLIFIC_PID=p1&item-1=caution_and_advice" }), 1_000);
    expect("form" in read && Object.fromEntries(read.form.entries())).toEqual({ PROLIFIC_PID: "p1", "item-1": "caution_and_advice" });
    const multipart = new FormData();
    multipart.set("PROLIFIC_PID", "p2");
    const fromMultipart = await readBoundedForm(new Request("http://x/p", { method: "POST", body: multipart }), 1_000);
    expect("form" in fromMultipart && fromMultipart.form.get("PROLIFIC_PID")).toBe("p2");
  });

  it("refuses a declared size over the cap before reading, and stops reading an undeclared one at the cap", async () => {
    const declared = new Request("http://x/p", { method: "POST", headers: { ...FORM, "content-length": "50000000" }, body: "a=1" });
    expect(await readBoundedForm(declared, 64_000)).toMatchObject({ status: 413 });
    const { body, pulled } = streamed(50 * 1024 * 1024);
    const undeclared = new Request("http://x/p", { method: "POST", headers: FORM, body, duplex: "half" } as RequestInit);
    expect(await readBoundedForm(undeclared, 256_000)).toMatchObject({ status: 413 });
    expect(pulled()).toBeLessThan(10);
  });

  it("answers 400 with a message for a body that is not a well-formed form", async () => {
    const post = (body: BodyInit | null, contentType?: string) => new Request("http://x/p", { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });
    const multipart = "--b\r\nContent-Disposition: form-data; name=\"PROLIFIC_PID\"\r\n\r\np1\r\n--b--\r\n";
    const cases: [Request, RegExp][] = [
      [post('{"PROLIFIC_PID":"p1"}', "application/json"), /Expected a form .* not "application\/json"/],
      [post(new TextEncoder().encode("PROLIFIC_PID=p1"), undefined), /without a content type/],
      [post(multipart.slice(0, 40), "multipart/form-data; boundary=b"), /malformed or cut short/],
      [post(multipart, "multipart/form-data"), /malformed or cut short/], // no boundary
      [post(multipart, "multipart/form-data; boundary=other"), /malformed or cut short/],
    ];
    for (const [request, message] of cases) {
      const read = await readBoundedForm(request, 64_000);
      expect(read).toMatchObject({ status: 400 });
      expect("message" in read && read.message).toMatch(message);
    }
    // A body that breaks off on the way (the client went away, or the request guard cut it).
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("PROLIFIC_PID=p"));
        controller.error(new Error("aborted"));
      },
    });
    const cut = await readBoundedForm(new Request("http://x/p", { method: "POST", headers: FORM, body: broken, duplex: "half" } as RequestInit), 64_000);
    expect(cut).toEqual({ status: 400, message: "The form did not arrive whole." });
  });
});
