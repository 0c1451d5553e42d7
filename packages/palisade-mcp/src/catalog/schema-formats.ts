/**
 * The `format` values Palisade checks: those JSON Schema 2020-12 defines that ajv-formats
 * implements, in its full mode. Any other format is refused at construction, since it would be
 * advertised and not checked.
 *
 * Full mode, not fast: fast mode accepts `2026-02-31`, a time of `25:00:00Z` and any
 * `scheme:anything` as a URI, which is not what the schema says. Every validator below was
 * measured against adversarial strings of 1 MiB (runs of 70-odd units with 11 prefixes and
 * 11 endings): all are linear; the slowest are `date-time` (about 160 ms: it splits the
 * string on `t` or whitespace, one piece per separator) and `uri-reference` (about 80 ms).
 *
 * Left out on purpose:
 * - `regex`: it compiles the client's string with V8's RegExp (0.5 s for 1 MiB), and "a valid
 *   ECMA-262 pattern" is not what Palisade's own pattern engine runs.
 * - `url` (not a 2020-12 format): its regex did not finish on a 16 KiB string.
 * - ajv-formats' extras, which are not 2020-12 formats and which a client's validator would
 *   not know: `iso-time`, `iso-date-time`, `json-pointer-uri-fragment`, `byte` (its regex has
 *   the `m` flag, so one valid line passes a multi-line string), `int32`, `int64`, `float`,
 *   `double`, `password`, `binary`.
 * - `idn-email`, `idn-hostname`, `iri`, `iri-reference`: ajv-formats has no validator.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

const NAMES = [
  'date',
  'time',
  'date-time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'uri-template',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
] as const;

export const SCHEMA_FORMATS: ReadonlySet<string> = new Set(NAMES);

export function addSchemaFormats(ajv: Ajv2020): void {
  for (const name of NAMES) ajv.addFormat(name, fullFormats[name]);
}
