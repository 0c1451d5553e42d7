/**
 * RFC 8785-style JSON text for values already admitted by the label grammar: no insignificant
 * whitespace, every string NFC first, object keys sorted by UTF-16 code units, integers in plain
 * decimal. The escaping is RFC 8785's: `"` and `\` escaped, the five short control escapes,
 * other controls below U+0020 as `\u00xx` in lowercase hex, and everything else literal UTF-8
 * (including `/`, U+007F, U+2028 and U+2029).
 */
import { erlangFloatText } from './erlang-float.js';
import type { LabelValue } from './label-value.js';
import { compareCodeUnits, nfc } from './text-order.js';

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

/** A JSON string literal of `value` after NFC. The caller has refused lone surrogates. */
export function quote(value: string): string {
  return `"${nfc(value).replace(
    NEEDS_ESCAPE,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}"`;
}

/** The canonical text of an admitted label-grammar value. */
export function writeValue(value: LabelValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // Only a weight admits a float (`admitWeight`), and weights reach only the sidecar.
      return Number.isInteger(value) && !Object.is(value, -0) ? value.toString() : erlangFloatText(value);
    case 'bigint':
      // Admitted numbers are safe integers and bigints are exact: both print in plain decimal.
      return value.toString();
  }
  if (Array.isArray(value)) return `[${value.map((item) => writeValue(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, LabelValue>).map(
    ([key, item]) => [nfc(key), item] as const,
  );
  entries.sort((a, b) => compareCodeUnits(a[0], b[0]));
  return `{${entries.map(([key, item]) => `${quote(key)}:${writeValue(item)}`).join(',')}}`;
}
