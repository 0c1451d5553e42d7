/**
 * `{ ...source }` for the objects a result is built from, minus symbol keys (which JSON never
 * carries). V8 gives a spread's copy a map that adding one more member turns slow: a result
 * envelope built as `{ ...result, resultType }` measured ~1 µs against ~0.07 µs for this copy.
 *
 * Members are defined as the spread defines them: an own `__proto__` key (JSON.parse makes one)
 * stays a data member and never reaches the prototype setter, which plain assignment would call.
 */
import type { JsonObject } from '../catalog/types.js';

export function ownCopy(source: object): JsonObject {
  const copy: JsonObject = {};
  const from = source as JsonObject;
  for (const key of Object.keys(from)) {
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: from[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = from[key];
    }
  }
  return copy;
}
