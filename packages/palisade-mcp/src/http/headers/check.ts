/**
 * The outcome of holding a request's headers to its body, and the one way a refusal is worded.
 * A refusal names the header as the spec or the tool's schema spells it and the rule it broke,
 * never a value: the header value and the body value are the caller's data, and echoing either
 * would turn the error into a reflection channel (and put header-borne secrets into logs).
 */

/** A refusal names its header cut to this many UTF-16 code units, so its message stays short however long a schema's `x-mcp-header` name is. */
export const MAX_REFUSAL_HEADER_NAME_CHARS = 64;

export type HeaderCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** Canonical name, e.g. `Mcp-Name` or `Mcp-Param-Region`; bounded only by the schema's size. */
      readonly header: string;
      /** `Header mismatch: <header> <rule>`: at most 136 characters, and never a header or body value. */
      readonly message: string;
    };

export const HEADERS_MATCH: HeaderCheck = Object.freeze({ ok: true });

/** The rules a header can break, worded once so no message is built from request data. */
export const RULE = Object.freeze({
  missing: 'is missing',
  repeated: 'is repeated; it must appear once',
  badCharacter: 'holds a character a client must send base64-encoded',
  badSentinel: 'holds a malformed =?base64?...?= value',
  mismatch: 'does not match the body',
  noBodyValue: 'is present but the body has no value for it',
  notInteger: 'is not a decimal integer within the safe range',
  notBoolean: 'is not exactly true or false',
});

export type Rule = (typeof RULE)[keyof typeof RULE];

export function headerRefusal(header: string, rule: Rule): HeaderCheck {
  const shown =
    header.length > MAX_REFUSAL_HEADER_NAME_CHARS
      ? `${header.slice(0, MAX_REFUSAL_HEADER_NAME_CHARS)}...`
      : header;
  return { ok: false, header, message: `Header mismatch: ${shown} ${rule}` };
}
