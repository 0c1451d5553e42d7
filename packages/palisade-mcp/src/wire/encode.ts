/**
 * The one serializer for outbound messages. The host's values pass through it, so it refuses
 * what JSON cannot carry faithfully instead of letting `JSON.stringify` change it silently:
 * a non-finite number (which would become `null`), a function or symbol (which would vanish),
 * `undefined` inside an array (which would become `null`), a BigInt, a cycle, or a `toJSON`
 * that throws. `undefined` as an object member means "absent" in JavaScript and is omitted, as
 * JSON.stringify does. The caller answers a refusal as a host fault.
 */
import { isPlainObject } from '../options.js';

export type EncodeResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

class Unencodable extends Error {}

function replacer(this: unknown, key: string, value: unknown): unknown {
  switch (typeof value) {
    case 'object':
      return plainData(value, (this as Record<string, unknown>)[key]);
    case 'number':
      if (!Number.isFinite(value)) throw new Unencodable('a non-finite number');
      return value;
    case 'function':
      throw new Unencodable('a function');
    case 'symbol':
      throw new Unencodable('a symbol');
    case 'bigint':
      throw new Unencodable('a BigInt');
    case 'undefined':
      if (Array.isArray(this)) throw new Unencodable('undefined inside an array');
      return value;
    default:
      return value;
  }
}

/**
 * Objects must be plain data: a Map, a Set, an Error, a typed array or a class instance would be
 * sent as `{}` or as an object of indexes. Boxed primitives are unboxed by JSON.stringify, so a
 * boxed non-finite number is caught here too, and so is an invalid Date, whose toJSON says null.
 */
function plainData(value: object | null, original: unknown): unknown {
  if (original instanceof Date && Number.isNaN(original.getTime())) throw new Unencodable('an invalid Date');
  if (value === null || Array.isArray(value)) return value;
  if (value instanceof Number) {
    if (!Number.isFinite(value.valueOf())) throw new Unencodable('a non-finite number');
    return value;
  }
  if (value instanceof String || value instanceof Boolean) return value;
  if (!isPlainObject(value)) throw new Unencodable('an object that is not plain data');
  return value;
}

export function encodeMessage(message: unknown): EncodeResult {
  try {
    const text = JSON.stringify(message, replacer);
    if (typeof text !== 'string') return { ok: false, reason: 'the value has no JSON form' };
    return { ok: true, text };
  } catch (error) {
    if (error instanceof Unencodable) return { ok: false, reason: `the value holds ${error.message}` };
    if (error instanceof RangeError) return { ok: false, reason: 'the value nests too deeply to serialize' };
    return { ok: false, reason: 'the value could not be serialized (a cycle, or a toJSON that throws)' };
  }
}
