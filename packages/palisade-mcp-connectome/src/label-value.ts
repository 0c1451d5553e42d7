/**
 * The label grammar: the JSON-like values a node's labels, an edge's weight and a diff's window
 * may hold. Every value is checked once, when it enters a graph or a record, and copied, so a
 * host mutating its own object afterwards cannot change bytes already admitted.
 *
 * Integers only in hashed bytes: a float has no single canonical text (the original's verifier
 * and JavaScript print them differently), so floats are refused rather than rounded. The one
 * exception is an edge's weight (`admitWeight`), which never enters hashed bytes: there a finite
 * float is kept and the sidecar writes it in the original's float text. A `number` beyond 2^53 - 1
 * may already have been rounded when it was parsed, so it is refused too; a `bigint` is exact
 * at any size and is written in full.
 */
import { ConnectomeError } from './errors.js';
import { isPlainObject } from './options.js';
import { nfc, requireWellFormed } from './text-order.js';

export type LabelValue = string | number | bigint | boolean | null | readonly LabelValue[] | LabelObject;
export interface LabelObject {
  readonly [key: string]: LabelValue;
}

/** Nesting bound for label values; deeper values (or cyclic ones) are refused, not walked. */
export const MAX_LABEL_DEPTH = 64; // → 'PALISADE_ERR_CONNECTOME_LABEL_VALUE'

/** Checks `value` against the grammar and returns a frozen copy; `where` names it in a refusal. */
export function admitLabelValue(value: unknown, where: string): LabelValue {
  return admit(value, where, 0, false);
}

/**
 * As `admitLabelValue`, for an edge's weight: finite floats too (a latency mean, a rate), since a
 * weight lives only in the unhashed sidecar. NaN and the infinities have no JSON text and are
 * refused as floats are elsewhere.
 */
export function admitWeight(value: unknown, where: string): LabelValue {
  return admit(value, where, 0, true);
}

/** As `admitLabelValue`, for a value that must be an object (labels, a window). */
export function admitLabelObject(value: unknown, where: string): LabelObject {
  if (!isPlainObject(value)) {
    throw new ConnectomeError('PALISADE_ERR_CONNECTOME_LABEL_VALUE', `${where} must be a plain object`);
  }
  return admit(value, where, 0, false) as LabelObject;
}

function admit(value: unknown, where: string, depth: number, floats: boolean): LabelValue {
  if (depth > MAX_LABEL_DEPTH) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_LABEL_VALUE',
      `${where} nests deeper than ${MAX_LABEL_DEPTH} levels`,
    );
  }
  switch (typeof value) {
    case 'string':
      requireWellFormed(value, where);
      return value;
    case 'boolean':
    case 'bigint':
      return value;
    case 'number':
      // A weight may hold a finite float (negative zero included); an integral value is an
      // integer under the same rules as everywhere else.
      if (floats && Number.isFinite(value) && (!Number.isInteger(value) || Object.is(value, -0)))
        return value;
      return admitNumber(value, where);
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) {
        return Object.freeze(value.map((item, i) => admit(item, `${where}[${i}]`, depth + 1, floats)));
      }
      if (isPlainObject(value) && Object.getOwnPropertySymbols(value).length === 0) {
        return admitObject(value, where, depth, floats);
      }
      break;
  }
  throw new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_LABEL_VALUE',
    `${where} is a ${describe(value)}, which has no canonical bytes (strings, integers, booleans, null, arrays and plain objects only)`,
  );
}

function admitNumber(value: number, where: string): number {
  if (!Number.isInteger(value) || Object.is(value, -0)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_FLOAT',
      `${where} is the float ${String(value)}; hashed bytes carry integers only`,
    );
  }
  if (!Number.isSafeInteger(value)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_UNSAFE_INTEGER',
      `${where} is ${String(value)}, beyond 2^53 - 1, where a number may already be rounded; pass a bigint`,
    );
  }
  return value;
}

function admitObject(
  value: Record<string, unknown>,
  where: string,
  depth: number,
  floats: boolean,
): LabelObject {
  const seen = new Map<string, string>();
  const entries: [string, LabelValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    requireWellFormed(key, `${where} key ${JSON.stringify(key)}`);
    const normal = nfc(key);
    const earlier = seen.get(normal);
    if (earlier !== undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_NFC_COLLISION',
        `${where} keys ${JSON.stringify(earlier)} and ${JSON.stringify(key)} are one key after NFC`,
      );
    }
    seen.set(normal, key);
    entries.push([key, admit(item, `${where}.${key}`, depth + 1, floats)]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return Object.freeze(Object.fromEntries(entries));
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    return `${Object.getPrototypeOf(value)?.constructor?.name ?? 'object'} object`;
  }
  return typeof value;
}
