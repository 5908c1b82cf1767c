/**
 * A request body read with a size cap, for routes that anyone may POST to: a declared Content-Length over the cap is
 * refused before a byte is read, and a body without one is read only up to the cap. null: too large.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const chunks: Uint8Array[] = [];
  if (request.body) {
    const reader = request.body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** A form read with readBoundedBody's cap, or why it was refused (413: too large; 400: not a well-formed form). */
export type BoundedForm = { form: FormData } | { status: 400 | 413; message: string };

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * A form body read with readBoundedBody's cap. Anything else anyone may send (another content type, a truncated or
 * malformed multipart body, a body cut off on the way) is a refusal with a message, never an exception.
 */
export async function readBoundedForm(request: Request, maxBytes: number): Promise<BoundedForm> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.has(contentType.split(";")[0]!.trim().toLowerCase())) {
    return { status: 400, message: `Expected a form (${[...FORM_TYPES].join(" or ")}), not ${contentType ? `"${contentType.slice(0, 80)}"` : "a body without a content type"}.` };
  }
  let body: Buffer | null;
  try {
    body = await readBoundedBody(request, maxBytes);
  } catch {
    return { status: 400, message: "The form did not arrive whole." };
  }
  if (body === null) return { status: 413, message: `The form is larger than ${Math.round(maxBytes / 1024)} KB.` };
  try {
    return { form: await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData() };
  } catch {
    return { status: 400, message: "The form could not be read: its body is malformed or cut short." };
  }
}
