/**
 * The one bounded JSON reader every transport uses: bytes in, a JSON value or a named refusal
 * out, and it never throws. Order of the checks, each decided before the next costs anything:
 *
 *   1. size (before any byte is read)            -32600 too-large
 *   2. strict UTF-8                              -32700 invalid-utf8
 *   3. pre-scan: nothing but JSON whitespace     -32700 empty
 *                nesting deeper than the bound   -32600 too-deep   (no value built)
 *   4. JSON.parse                                -32700 not-json   (V8's message is dropped: it quotes the input)
 *   5. surrogate escapes found by the pre-scan   -32600 lone-surrogate
 *   6. repeated key                              -32600 repeated-key
 *   7. (readJsonMessage only) shape              -32600 batch / not-object
 *
 * So a malformed document is 'not-json' even when it also holds a lone surrogate, and depth is
 * judged on the brackets before syntax, so 65 unclosed `[` is 'too-deep', not 'not-json'.
 * Envelope checks (`jsonrpc`, `method`, `id`) belong to the caller.
 */

import { MAX_JSON_DEPTH, MAX_MESSAGE_BYTES } from '../limits.js';
import { INVALID_REQUEST, PARSE_ERROR } from './codes.js';
import { countParsedKeys, findRepeatedKey, renderRefusalKey } from './json-repeated-key.js';
import { scanJson } from './json-scan.js';
import type { JsonRule, ReadResult, WireRefusal } from './refusal.js';
import { decodeUtf8 } from './utf8-text.js';

type Refused = { readonly ok: false; readonly refusal: WireRefusal<JsonRule> };

function refuse(code: WireRefusal['code'], rule: JsonRule, message: string): Refused {
  return Object.freeze({ ok: false, refusal: Object.freeze({ code, rule, message }) });
}

// Every message is built from constants and numbers we chose, never from the client's bytes;
// the one exception is a repeated key's name, bounded and escaped by renderRefusalKey.
const TOO_LARGE = refuse(
  INVALID_REQUEST,
  'too-large',
  `Invalid request: message exceeds ${MAX_MESSAGE_BYTES} bytes`,
);
const INVALID_UTF8 = refuse(PARSE_ERROR, 'invalid-utf8', 'Parse error: message is not valid UTF-8');
const EMPTY = refuse(PARSE_ERROR, 'empty', 'Parse error: empty message');
const NOT_JSON = refuse(PARSE_ERROR, 'not-json', 'Parse error: message is not valid JSON');
const TOO_DEEP = refuse(
  INVALID_REQUEST,
  'too-deep',
  `Invalid request: message nests deeper than ${MAX_JSON_DEPTH} levels`,
);
const LONE_SURROGATE = refuse(
  INVALID_REQUEST,
  'lone-surrogate',
  'Invalid request: a string holds an unpaired surrogate escape',
);
const BATCH = refuse(INVALID_REQUEST, 'batch', 'Invalid request: batch (array) messages are not supported');
const NOT_OBJECT = {
  string: refuse(INVALID_REQUEST, 'not-object', 'Invalid request: message is a string, not an object'),
  number: refuse(INVALID_REQUEST, 'not-object', 'Invalid request: message is a number, not an object'),
  boolean: refuse(INVALID_REQUEST, 'not-object', 'Invalid request: message is a boolean, not an object'),
  null: refuse(INVALID_REQUEST, 'not-object', 'Invalid request: message is a null, not an object'),
} as const;

function repeatedKey(text: string): Refused {
  const key = findRepeatedKey(text);
  // The counts differ only when a key repeats, so the search always finds one; the fallback
  // keeps the refusal truthful should that reasoning ever break.
  // Stryker disable next-line UnaryOperator,StringLiteral: unreachable, the search always finds the repeat
  if (key === undefined)
    return refuse(INVALID_REQUEST, 'repeated-key', 'Invalid request: message repeats a key');
  return refuse(
    INVALID_REQUEST,
    'repeated-key',
    `Invalid request: message repeats the key ${renderRefusalKey(key)}`,
  );
}

/**
 * Reads one JSON value of any type under the wire bounds (size, UTF-8, depth, surrogates,
 * repeated keys). For values that are not messages, such as opaque pagination cursors.
 */
export function readJsonValue(bytes: Uint8Array): ReadResult<unknown> {
  if (bytes.length > MAX_MESSAGE_BYTES) return TOO_LARGE;
  return readJsonDocument(bytes);
}

/**
 * Steps 2 to 6 without the message bound, for documents that are not wire messages (a graph file,
 * a peer's graph): the caller bounds their size first, with a bound of its own.
 */
export function readJsonDocument(bytes: Uint8Array): ReadResult<unknown> {
  const text = decodeUtf8(bytes);
  if (text === undefined) return INVALID_UTF8;

  const scan = scanJson(text);
  if (scan.kind === 'empty') return EMPTY;
  if (scan.kind === 'too-deep') return TOO_DEEP;
  // Stryker disable next-line StringLiteral: without this return, JSON.parse refuses the same text
  if (scan.kind === 'not-json') return NOT_JSON;

  let value: unknown;
  try {
    // The value is returned as JSON.parse built it: a `__proto__` key is an own data property
    // there, which never touches a prototype. Copying it (Object.assign, assignment into a
    // fresh object) would call the `__proto__` setter instead, so nothing here copies.
    value = JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
  if (scan.loneSurrogate) return LONE_SURROGATE;
  // Small objects had their keys compared by the scan. Otherwise only a repeat can make the
  // parsed tree hold fewer properties than the text has keys; a single key cannot repeat.
  if (scan.keysCompared ? scan.repeatedKey : scan.keys > 1 && countParsedKeys(value) !== scan.keys) {
    return repeatedKey(text);
  }
  return { ok: true, value };
}

/**
 * Reads one JSON-RPC message candidate: a JSON object under the wire bounds. A batch (array)
 * and every other JSON type are refused by name.
 */
export function readJsonMessage(bytes: Uint8Array): ReadResult<Record<string, unknown>> {
  const read = readJsonValue(bytes);
  if (!read.ok) return read;
  const value = read.value;
  if (value === null) return NOT_OBJECT.null;
  switch (typeof value) {
    case 'object':
      // The same result object, retyped: a parsed non-array object is a string-keyed record.
      return Array.isArray(value) ? BATCH : (read as ReadResult<Record<string, unknown>>);
    case 'string':
      return NOT_OBJECT.string;
    case 'number':
      return NOT_OBJECT.number;
    case 'boolean':
      return NOT_OBJECT.boolean;
    // Stryker disable next-line ConditionalExpression: unreachable, JSON.parse returns no other type
    default:
      // JSON.parse yields no other type; answering 'not-json' keeps the function total.
      return NOT_JSON;
  }
}

/**
 * The key a document `readJsonDocument` refused as `repeated-key` repeats first, bounded and
 * escaped for a message (as the refusal's own message names it), for a caller that words its
 * own refusal; `undefined` when the bytes repeat no key or are not UTF-8.
 */
export function repeatedKeyOf(bytes: Uint8Array): string | undefined {
  const text = decodeUtf8(bytes);
  const key = text === undefined ? undefined : findRepeatedKey(text);
  return key === undefined ? undefined : renderRefusalKey(key);
}
