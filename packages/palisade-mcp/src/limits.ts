/**
 * Every bound Palisade enforces on client input, in one place, each with its unit and the
 * refusal it produces. `docs/threat-model.md` has a row per constant; tests pin the numbers
 * with literal bytes rather than by importing these names, so a change here fails a test.
 */

/** Largest message accepted on any transport: stdio line, legacy frame, HTTP body. Refusal: -32600. */
export const MAX_MESSAGE_BYTES = 1_048_576;

/** Deepest nesting of arrays and objects admitted in a message. 65 is refused with -32600 before any value is built. */
export const MAX_JSON_DEPTH = 64;

/** A repeated key is named in its refusal, cut to this many UTF-16 code units so a client cannot echo a payload through it. */
export const MAX_REFUSAL_KEY_CHARS = 32;

/** Items per page of every list result (`tools/list`, `resources/list`, ...). */
export const DEFAULT_PAGE_SIZE = 50;

/** Upper bound for the `pageSize` option: a page is built in one event-loop turn. */
export const MAX_PAGE_SIZE = 1_000;

/** Longest cursor accepted from a client, in bytes; a cursor is opaque but still input. */
export const MAX_CURSOR_BYTES = 1_024;

/** Header lines of one legacy `Content-Length` block on stdio; each line is bounded by MAX_MESSAGE_BYTES too. */
export const MAX_LEGACY_HEADER_LINES = 32;

/** Tool names: 1 to 128 characters of `A-Za-z0-9_.-` (the spec's format, checked at construction). */
export const MAX_TOOL_NAME_CHARS = 128;

/** A host schema is compiled once; its serialized size is bounded so construction cannot be made to hang. */
export const MAX_SCHEMA_BYTES = 262_144;

/** Deepest nesting of a host schema. */
export const MAX_SCHEMA_DEPTH = 32;

/** JSON objects (subschemas and keyword maps such as `properties`) in one host schema, counted at construction. */
export const MAX_SCHEMA_SUBSCHEMAS = 2_000;
