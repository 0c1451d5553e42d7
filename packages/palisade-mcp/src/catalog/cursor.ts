/**
 * One opaque cursor for every list. It names the list it belongs to and the key of the last
 * item served, so the next page starts after that key: an item inserted between two pages is
 * never skipped, as it would be with an offset. The cursor is client input: it is length-bounded,
 * its base64url must be canonical, and its JSON goes through the same bounded reader as any message.
 */
import { MAX_CURSOR_BYTES } from '../limits.js';
import { readJsonMessage } from '../wire/json-reader.js';

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

const CURSOR_VERSION = 1;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type CursorResult =
  | { readonly ok: true; readonly after: string }
  | { readonly ok: false; readonly message: string };

export function encodeCursor(kind: ListKind, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, l: kind, k: lastKey }), 'utf8').toString(
    'base64url',
  );
}

const MALFORMED: CursorResult = { ok: false, message: 'cursor is malformed' };

export function decodeCursor(kind: ListKind, cursor: unknown): CursorResult {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_BYTES) return MALFORMED;
  if (!BASE64URL.test(cursor)) return MALFORMED;
  const bytes = Buffer.from(cursor, 'base64url');
  // Node's decoder forgives stray bits in the last character; only the spelling we issue is accepted.
  if (bytes.toString('base64url') !== cursor) return MALFORMED;
  const read = readJsonMessage(bytes);
  if (!read.ok) return MALFORMED;
  const { v, l, k } = read.value;
  if (
    Object.keys(read.value).length !== 3 ||
    v !== CURSOR_VERSION ||
    typeof l !== 'string' ||
    typeof k !== 'string'
  ) {
    return MALFORMED;
  }
  if (l !== kind) return { ok: false, message: 'cursor belongs to another list' };
  return { ok: true, after: k };
}

/** Code-unit order, the one order every list is sorted and searched in. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** `items` must be sorted by `keyOf` under `compareKeys`. */
export function paginate<T>(
  kind: ListKind,
  items: readonly T[],
  keyOf: (item: T) => string,
  after: string | undefined,
  pageSize: number,
): Page<T> {
  let start = 0;
  if (after !== undefined) {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareKeys(keyOf(items[mid]!), after) <= 0) low = mid + 1;
      else high = mid;
    }
    start = low;
  }
  const slice = items.slice(start, start + pageSize);
  if (start + pageSize >= items.length || slice.length === 0) return { items: slice };
  return { items: slice, nextCursor: encodeCursor(kind, keyOf(slice[slice.length - 1]!)) };
}
