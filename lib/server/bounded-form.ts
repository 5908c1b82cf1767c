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

/** A form body read with readBoundedBody's cap. null: too large. */
export async function readBoundedForm(request: Request, maxBytes: number): Promise<FormData | null> {
  const body = await readBoundedBody(request, maxBytes);
  if (body === null) return null;
  return new Response(new Uint8Array(body), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}
