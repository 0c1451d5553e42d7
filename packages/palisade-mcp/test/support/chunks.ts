/** Byte streams for the property tests: joined, and cut at arbitrary points. */

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** `stream` cut at the given points (modulo its length); empty chunks included. */
export function split(stream: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let previous = 0;
  for (const point of points) {
    chunks.push(stream.subarray(previous, point));
    previous = point;
  }
  chunks.push(stream.subarray(previous));
  return chunks;
}
