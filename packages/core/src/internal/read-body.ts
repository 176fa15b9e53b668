// Reading a response body whole, within a byte bound.

/** A body larger than the limit: never retried (the same request gets the same body). */
export class BodyTooLarge extends Error {}

/** Reads the whole body, failing as soon as it grows past `limit` bytes. */
export async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    // Not read, so cancel it: otherwise the connection stays open, the server blocked on a full socket.
    response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(`${declared}`);
  }
  if (response.body === null) return new Uint8Array(0);
  // Read chunk by chunk, even with a declared length: an encoded body's length counts compressed
  // bytes, a `fetch` option's Response may declare less than it holds, and (measured) the reader is
  // faster than `arrayBuffer()`, which copies the bytes once more.
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(`more than ${limit}`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
