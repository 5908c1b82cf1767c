/**
 * A form body read with a size cap, for routes that anyone may POST to: a declared Content-Length over the cap is
 * refused before a byte is read, and a body without one is read only up to the cap. null: too large.
 */
export async function readBoundedForm(request: Request, maxBytes: number): Promise<FormData | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
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
      chunks.push(value as Uint8Array<ArrayBuffer>);
    }
  }
  return new Response(new Blob(chunks), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}
