/**
 * An answer's body read to a bound: at most `limit` bytes, and whether it
 * held more. Leaving the loop early destroys the rest of the answer (and
 * its connection), so a body that never ends costs no more than `limit`.
 */
export async function boundedBody(
  body: AsyncIterable<Buffer>,
  limit: number,
): Promise<{ body: Buffer; oversized: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) break;
  }
  return { body: Buffer.concat(chunks).subarray(0, limit), oversized: size > limit };
}
