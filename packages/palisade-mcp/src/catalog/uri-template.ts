/**
 * RFC 6570 URI templates for MCP resource templates, restricted to what can be matched back
 * unambiguously: simple `{var}` and reserved `{+var}` expressions, each pair separated by a
 * literal. Everything else is refused at construction, naming the defect.
 *
 * Matching decides which client URIs reach a host's reader, so it is strict: literals match
 * byte for byte in their RFC 3986 form, values are percent-decoded strictly (bad escapes and
 * invalid UTF-8 are no match), and values that could walk a path (`..`, `%2F`, backslashes,
 * control characters) are no match. It scans left to right with no backtracking: linear time.
 */
import { MAX_TEMPLATE_URI_BYTES } from '../limits.js';

export { MAX_TEMPLATE_URI_BYTES } from '../limits.js';

import { PalisadeError } from '../errors.js';

export interface UriTemplateVariable {
  readonly name: string;
  /** `{+name}`: may span `/` and keeps reserved characters raw when expanded. */
  readonly reserved: boolean;
}

export interface UriTemplate {
  readonly source: string;
  readonly variables: readonly UriTemplateVariable[];
  /** The decoded value of each variable, or undefined when `uri` does not match. */
  match(uri: string): Record<string, string> | undefined;
  /**
   * The URI for these values, percent-encoded so that `match` gives them back. A missing value
   * expands to nothing (RFC 6570's undefined variable), which `match` will then not accept.
   */
  expand(values: Readonly<Record<string, string>>): string;
}

export function parseUriTemplate(template: string): UriTemplate {
  const { literals, variables } = parse(template);
  return Object.freeze({
    source: template,
    variables,
    match: (uri: string) => match(literals, variables, uri),
    expand: (values: Readonly<Record<string, string>>) => expand(literals, variables, values),
  });
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface Parsed {
  /** One more than `variables`: the text before, between and after them, in RFC 3986 form. */
  readonly literals: readonly string[];
  readonly variables: readonly UriTemplateVariable[];
}

const SHOWN_TEMPLATE_CHARS = 120;

function refuse(template: string, defect: string): PalisadeError {
  const shown =
    template.length > SHOWN_TEMPLATE_CHARS ? `${template.slice(0, SHOWN_TEMPLATE_CHARS)}…` : template;
  return new PalisadeError('PALISADE_ERR_URI_TEMPLATE', `URI template ${JSON.stringify(shown)} ${defect}`);
}

/** RFC 6570 varname: varchars (ALPHA / DIGIT / "_" / pct-encoded), dots only between them. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;

/** Operators RFC 6570 defines (or reserves) besides `+`; each changes how values are joined. */
const OTHER_OPERATORS = '#./;?&=,!@|';

function parse(template: string): Parsed {
  const literals: string[] = [];
  const variables: UriTemplateVariable[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '}') throw refuse(template, `has a stray "}" at offset ${i}`);
    if (c !== '{') {
      const [text, width] = literalChar(template, i);
      literal += text;
      i += width;
      continue;
    }
    const close = template.indexOf('}', i + 1);
    const nested = template.indexOf('{', i + 1);
    if (close < 0) throw refuse(template, `has an unclosed "{" at offset ${i}`);
    if (nested >= 0 && nested < close)
      throw refuse(template, `has a "{" inside an expression at offset ${nested}`);
    if (variables.length > 0 && literal === '') {
      const previous = `{${variables[variables.length - 1]!.reserved ? '+' : ''}${variables[variables.length - 1]!.name}}`;
      throw refuse(
        template,
        `has no literal between ${previous} and ${template.slice(i, close + 1)}, so a URI could not be split unambiguously`,
      );
    }
    const variable = expression(template, template.slice(i + 1, close));
    if (variables.some((seen) => seen.name === variable.name)) {
      throw refuse(template, `uses the variable "${variable.name}" twice`);
    }
    literals.push(literal);
    variables.push(variable);
    literal = '';
    i = close + 1;
  }
  literals.push(literal);
  return { literals: Object.freeze(literals), variables: Object.freeze(variables) };
}

function expression(template: string, body: string): UriTemplateVariable {
  const shown = `{${body}}`;
  const operator = body[0] ?? '';
  if (OTHER_OPERATORS.includes(operator) && operator !== '') {
    throw refuse(
      template,
      `uses the "${operator}" operator in ${shown}; only {var} and {+var} are supported`,
    );
  }
  const reserved = operator === '+';
  const name = reserved ? body.slice(1) : body;
  if (name === '') throw refuse(template, `has an empty expression ${shown}`);
  if (name.includes(','))
    throw refuse(template, `lists several variables in ${shown}; give each its own expression`);
  if (name.endsWith('*')) throw refuse(template, `uses the explode modifier in ${shown}`);
  if (name.includes(':')) throw refuse(template, `uses a prefix modifier in ${shown}`);
  if (!VARNAME.test(name)) throw refuse(template, `has an invalid variable name in ${shown}`);
  return Object.freeze({ name, reserved });
}

/**
 * One literal character at `i`, in the form a URI carries it: ASCII URI characters as they are,
 * a pct-encoded triplet as written (no case folding), other Unicode percent-encoded as UTF-8
 * (RFC 6570 section 3.1). Characters RFC 6570 excludes from literals are refused.
 */
function literalChar(template: string, i: number): [text: string, width: number] {
  const cp = template.codePointAt(i)!;
  const width = cp > 0xffff ? 2 : 1;
  if (cp === 0x25) {
    if (!HEX2.test(template.slice(i + 1, i + 3))) {
      throw refuse(template, `has an invalid percent-escape at offset ${i}`);
    }
    return [template.slice(i, i + 3), 3];
  }
  if (cp < 0x80 && LITERAL_ASCII.test(template[i]!)) return [template[i]!, 1];
  if (isUcsOrPrivate(cp)) return [percentEncode(String.fromCodePoint(cp)), width];
  const shown =
    cp < 0x20 || cp === 0x7f
      ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
      : String.fromCodePoint(cp);
  throw refuse(
    template,
    `has the character ${JSON.stringify(shown)} at offset ${i}, which RFC 6570 does not allow in a literal`,
  );
}

const HEX2 = /^[0-9A-Fa-f]{2}$/;

/** RFC 6570 `literals` in ASCII: no CTL, space, `"`, `'`, `%`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`. */
const LITERAL_ASCII = /^[!#$&(-;=?-[\]_a-z~]$/;

/** RFC 3987 `ucschar` / `iprivate`: the non-ASCII characters RFC 6570 admits in a literal. */
function isUcsOrPrivate(cp: number): boolean {
  if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff)) return false;
  if (cp <= 0xffff) return cp < 0xfdd0 || (cp > 0xfdef && cp < 0xfff0);
  if ((cp & 0xfffe) === 0xfffe) return false;
  return cp < 0xe0000 || cp >= 0xe1000;
}

// ---------------------------------------------------------------------------------------------
// Matching

function match(
  literals: readonly string[],
  variables: readonly UriTemplateVariable[],
  uri: string,
): Record<string, string> | undefined {
  if (typeof uri !== 'string' || exceedsBound(uri)) return undefined;
  const head = literals[0]!;
  if (variables.length === 0) return uri === head ? {} : undefined;
  const tail = literals[variables.length]!;
  const tailStart = uri.length - tail.length;
  if (!uri.startsWith(head) || tailStart < head.length || !uri.endsWith(tail)) return undefined;
  const entries: [string, string][] = [];
  let pos = head.length;
  for (let v = 0; v < variables.length; v++) {
    const last = v === variables.length - 1;
    const next = literals[v + 1]!;
    // A value ends at the first occurrence of the literal after it (searching from one past its
    // start, so it is never empty); the last value ends where the final literal begins. A value
    // therefore never contains the literal that follows it: deterministic, and one forward scan.
    const end = last ? tailStart : uri.indexOf(next, pos + 1);
    if (end <= pos || (!last && end + next.length > tailStart)) return undefined;
    const variable = variables[v]!;
    const value = decodeValue(uri.slice(pos, end), variable.reserved);
    if (value === undefined) return undefined;
    entries.push([variable.name, value]);
    pos = end + next.length;
  }
  // `fromEntries` defines own properties, so a variable named `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

function exceedsBound(uri: string): boolean {
  // Each UTF-16 unit is one to three UTF-8 bytes: count bytes only when the length cannot decide.
  if (uri.length > MAX_TEMPLATE_URI_BYTES) return true;
  return uri.length * 3 > MAX_TEMPLATE_URI_BYTES && Buffer.byteLength(uri, 'utf8') > MAX_TEMPLATE_URI_BYTES;
}

/** Raw characters a value may not hold: `/?#` delimit URI parts, and `?#` even for `{+var}`. */
const SIMPLE_RAW_FORBIDDEN = /[/?#]/;
const RESERVED_RAW_FORBIDDEN = /[?#]/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** Controls (C0, DEL, C1) and format characters (bidi overrides, zero-width marks): no reader needs them. */
const CONTROL = /[\p{Cc}\p{Cf}]/u;
/** `C:/...` or `c:\\...`: an absolute Windows path a reader's `path.resolve` would honour. */
const DRIVE_LETTER = /^[A-Za-z]:/;
const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The decoded value of one expression, or undefined when it must not match. */
function decodeValue(raw: string, reserved: boolean): string | undefined {
  if ((reserved ? RESERVED_RAW_FORBIDDEN : SIMPLE_RAW_FORBIDDEN).test(raw)) return undefined;
  const value = percentDecode(raw);
  if (value === undefined || CONTROL.test(value) || value.includes('\\')) return undefined;
  // Compatibility forms fold to the ASCII a file system may honour: fullwidth `．．／` is `../`.
  const folded = value.normalize('NFKC');
  if (folded.includes('\\')) return undefined;
  if (!reserved) {
    // `%2F` would put a path separator into a one-segment value; `.` and `..` alone walk a path too.
    return folded.includes('/') || folded === '.' || folded === '..' ? undefined : value;
  }
  // No segment may walk the path, and the value may not be absolute (`/etc/passwd`, `C:/x`).
  if (folded.startsWith('/') || DRIVE_LETTER.test(folded)) return undefined;
  for (const segment of folded.split('/')) if (segment === '.' || segment === '..') return undefined;
  return value;
}

/**
 * Strict percent-decoding: every `%` starts two hex digits, and the bytes (escapes plus raw
 * characters as UTF-8) must be valid UTF-8. The decoder keeps a leading BOM rather than
 * silently dropping it.
 */
function percentDecode(raw: string): string | undefined {
  if (LONE_SURROGATE.test(raw)) return undefined;
  if (!raw.includes('%')) return raw;
  const bytes = new Uint8Array(Buffer.byteLength(raw, 'utf8'));
  let length = 0;
  for (let i = 0; i < raw.length; ) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const high = hexValue(raw.charCodeAt(i + 1));
      const low = hexValue(raw.charCodeAt(i + 2));
      if (high < 0 || low < 0) return undefined;
      bytes[length++] = high * 16 + low;
      i += 3;
    } else {
      const cp = raw.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      length += Buffer.from(raw.slice(i, i + width), 'utf8').copy(bytes, length);
      i += width;
    }
  }
  try {
    return FATAL_UTF8.decode(bytes.subarray(0, length));
  } catch {
    return undefined;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Expansion

/** RFC 3986 unreserved: the only characters simple expansion leaves raw. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * What reserved expansion leaves raw: unreserved and reserved characters, except `?` and `#`,
 * which `match` refuses raw in a value. RFC 6570 would also pass `%XX` through as written;
 * here `%` is encoded like any other character, so `match` gives back the value expanded.
 */
const RESERVED_RAW = /^[A-Za-z0-9\-._~:/[\]@!$&'()*+,;=]$/;

function expand(
  literals: readonly string[],
  variables: readonly UriTemplateVariable[],
  values: Readonly<Record<string, string>>,
): string {
  let uri = literals[0]!;
  variables.forEach((variable, v) => {
    const value = Object.hasOwn(values, variable.name) ? values[variable.name] : undefined;
    if (typeof value === 'string') uri += encodeValue(value, variable.reserved ? RESERVED_RAW : UNRESERVED);
    uri += literals[v + 1]!;
  });
  return uri;
}

function encodeValue(value: string, raw: RegExp): string {
  let out = '';
  for (const char of value) out += raw.test(char) ? char : percentEncode(char);
  return out;
}

/** UTF-8, uppercase hex (RFC 3986 section 2.1); a lone surrogate becomes U+FFFD. */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
