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
    const form = await readBoundedForm(new Request("http://x/p", { method: "POST", headers: FORM, body: "PROLIFIC_PID=p1&item-1=caution_and_advice" }), 1_000);
    expect(Object.fromEntries(form?.entries() ?? [])).toEqual({ PROLIFIC_PID: "p1", "item-1": "caution_and_advice" });
  });

  it("refuses a declared size over the cap before reading, and stops reading an undeclared one at the cap", async () => {
    const declared = new Request("http://x/p", { method: "POST", headers: { ...FORM, "content-length": "50000000" }, body: "a=1" });
    expect(await readBoundedForm(declared, 64_000)).toBeNull();
    const { body, pulled } = streamed(50 * 1024 * 1024);
    const undeclared = new Request("http://x/p", { method: "POST", headers: FORM, body, duplex: "half" } as RequestInit);
    expect(await readBoundedForm(undeclared, 256_000)).toBeNull();
    expect(pulled()).toBeLessThan(10);
  });
});
