/**
 * Streamable HTTP header–body match (MCP 2026-07-28, SEP-2243): the headers an intermediary may
 * route, rate-limit or authorize on must say what the body says, or one request reads as two
 * (the MCP-layer smuggling class). Pure: the transport reads the body, settles the revision, then
 * asks here. A refusal is `-32020` with HTTP 400, which the transport answers.
 *
 * Decisions (spec-notes items 11, 15–17, 19):
 * - A repeated `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` line is refused on every
 *   message, even when the repeats agree: readers that join or pick the first or the last would
 *   disagree, and no conforming client repeats one. A declared `Mcp-Param-*` likewise.
 * - `Mcp-Name` is compared on `tools/call`, `prompts/get` (`params.name`), `resources/read`
 *   (`params.uri`) and the tasks extension's `tasks/get|update|cancel` (`params.taskId`) only; `Mcp-Param-*` headers the tool does not declare are not read at all.
 * - A request lacking a required header is refused; a notification never is, but a header it
 *   does carry is held to the body like a request's.
 * - When the body has no string `_meta` protocol version, `MCP-Protocol-Version` is not compared:
 *   the required-`_meta` check after this one answers `-32602`, which the spec's status table
 *   gives that case (a header-first refusal would make that row unreachable).
 * - When the body has no string `name`/`uri` for `Mcp-Name`, a present header is a mismatch, as
 *   is an `Mcp-Param-*` header whose argument is absent or null (a header with no body value).
 * - Only `Mcp-Name` and `Mcp-Param-*` are base64-decoded; `MCP-Protocol-Version` and `Mcp-Method`
 *   compare literally. A base64 spelling of a value that could have gone plain is accepted: the
 *   spec makes plain text a permission, not a duty.
 */
import { META_PROTOCOL_VERSION } from '../../revisions.js';
import { decodeHeaderValue } from '../../wire/header-value.js';
import type { McpHeaderField } from '../../wire/mcp-header-fields.js';
import {
  METHOD_HEADER,
  mcpNameSource,
  NAME_HEADER,
  PARAM_HEADER_PREFIX,
  PROTOCOL_VERSION_HEADER,
} from '../../wire/mcp-headers.js';
import { HEADERS_MATCH, type HeaderCheck, headerRefusal, RULE } from './check.js';
import { parseStrictInteger } from './integer.js';
import { headerText } from './text.js';
import { asciiLowerCase, type HeaderIndex, valuesOf } from './values.js';

/** `PROTOCOL_VERSION_HEADER` as `HeaderIndex` keys it. */
export const PROTOCOL_VERSION_LOWER = 'mcp-protocol-version';

export interface ModernHeaderInput {
  /** The request's header lines by lower-cased name (`indexHeaders` over Node's `req.rawHeaders`). */
  readonly headers: HeaderIndex;
  readonly message: {
    readonly method: string;
    readonly params?: Record<string, unknown> | undefined;
    readonly isNotification: boolean;
  };
  /** The called tool's declared fields (tools/call only); undefined when the tool is unknown or it is another method. */
  readonly headerFields?: readonly McpHeaderField[] | undefined;
}

type Read =
  | { readonly kind: 'absent' }
  | { readonly kind: 'present'; readonly text: string }
  | { readonly kind: 'refused'; readonly check: HeaderCheck };

const ABSENT: Read = { kind: 'absent' };

/** The one value of `header`, OWS-trimmed, checked for characters and, if `decode`, sentinel-decoded. */
function readOne(values: readonly string[] | undefined, header: string, decode: boolean): Read {
  if (values === undefined || values.length === 0) return ABSENT;
  if (values.length > 1) return { kind: 'refused', check: headerRefusal(header, RULE.repeated) };
  const text = headerText(values[0]!);
  if (text === undefined) return { kind: 'refused', check: headerRefusal(header, RULE.badCharacter) };
  const decoded = decode ? decodeHeaderValue(text) : text;
  if (decoded === undefined) return { kind: 'refused', check: headerRefusal(header, RULE.badSentinel) };
  // Stryker disable next-line StringLiteral: callers tell 'refused' and 'absent' apart; any other kind is present
  return { kind: 'present', text: decoded };
}

/** An own member of a plain object, never an inherited one (`toString`) nor an array index. */
function ownMember(node: unknown, key: string): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) node = ownMember(node, key);
  return node;
}

/** One header that must be there on a request, whose text `matches` decides. */
function checkText(
  values: readonly string[] | undefined,
  header: string,
  decode: boolean,
  required: boolean,
  matches: (text: string) => boolean,
): HeaderCheck {
  const read = readOne(values, header, decode);
  if (read.kind === 'refused') return read.check;
  if (read.kind === 'absent') return required ? headerRefusal(header, RULE.missing) : HEADERS_MATCH;
  return matches(read.text) ? HEADERS_MATCH : headerRefusal(header, RULE.mismatch);
}

function checkField(
  index: HeaderIndex,
  field: McpHeaderField,
  args: unknown,
  required: boolean,
): HeaderCheck {
  const header = PARAM_HEADER_PREFIX + field.header;
  const read = readOne(index.get(asciiLowerCase(header)), header, true);
  if (read.kind === 'refused') return read.check;
  const body = argumentAt(args, field.path);
  if (body === undefined || body === null) {
    return read.kind === 'absent' ? HEADERS_MATCH : headerRefusal(header, RULE.noBodyValue);
  }
  if (read.kind === 'absent') return required ? headerRefusal(header, RULE.missing) : HEADERS_MATCH;
  switch (field.type) {
    case 'string':
      return read.text === body ? HEADERS_MATCH : headerRefusal(header, RULE.mismatch);
    case 'integer': {
      const value = parseStrictInteger(read.text);
      if (value === undefined) return headerRefusal(header, RULE.notInteger);
      return value === body ? HEADERS_MATCH : headerRefusal(header, RULE.mismatch);
    }
    case 'boolean': {
      if (read.text !== 'true' && read.text !== 'false') return headerRefusal(header, RULE.notBoolean);
      return (read.text === 'true') === body ? HEADERS_MATCH : headerRefusal(header, RULE.mismatch);
    }
  }
}

/**
 * 2026-07-28: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and each `Mcp-Param-{Name}` the
 * tool declares, checked in that order; the first failure is returned.
 */
export function checkModernHeaders(input: ModernHeaderInput): HeaderCheck {
  const { message } = input;
  const index = input.headers;
  const required = !message.isNotification;
  const params: unknown = message.params;

  // No string version in the body: nothing to compare with (see the module comment), though the
  // header must still be there, once, and well-formed.
  const bodyVersion = ownMember(ownMember(params, '_meta'), META_PROTOCOL_VERSION);
  const version = checkText(
    index.get(PROTOCOL_VERSION_LOWER),
    PROTOCOL_VERSION_HEADER,
    false,
    required,
    (text) => typeof bodyVersion !== 'string' || text === bodyVersion,
  );
  if (!version.ok) return version;
  return checkMirrors(index, message, input.headerFields, required);
}

/**
 * `Mcp-Method`, `Mcp-Name` and the declared `Mcp-Param-{Name}` headers against the body; with
 * `required` false only the headers present are held to it.
 */
function checkMirrors(
  index: HeaderIndex,
  message: ModernHeaderInput['message'],
  headerFields: ModernHeaderInput['headerFields'],
  required: boolean,
): HeaderCheck {
  const params: unknown = message.params;
  const method = checkText(
    index.get('mcp-method'),
    METHOD_HEADER,
    false,
    required,
    (text) => text === message.method,
  );
  if (!method.ok) return method;

  const nameSource = mcpNameSource(message.method);
  const nameValues = index.get('mcp-name');
  if (nameSource === undefined) {
    if (nameValues !== undefined && nameValues.length > 1) return headerRefusal(NAME_HEADER, RULE.repeated);
  } else {
    // A body without a string there equals no header value.
    const body = ownMember(params, nameSource);
    const name = checkText(nameValues, NAME_HEADER, true, required, (text) => text === body);
    if (!name.ok) return name;
  }

  const args = ownMember(params, 'arguments');
  for (const field of headerFields ?? []) {
    const checked = checkField(index, field, args, required);
    if (!checked.ok) return checked;
  }
  return HEADERS_MATCH;
}

/** What `MCP-Protocol-Version` says on a request of the handshake era: absent, a value, or malformed. */
export type VersionHeader =
  | { readonly ok: true; readonly version: string | undefined }
  | Extract<HeaderCheck, { ok: false }>;

/**
 * The handshake revisions: from 2025-06-18 `MCP-Protocol-Version` names the revision `initialize`
 * agreed, and a request may lack it (2025-03-26 defines no such header; the server then assumes
 * that revision). When present it must appear once and be well-formed; compared literally, never
 * base64-decoded. Which values are served is the transport's to decide.
 */
export function readVersionHeader(headers: HeaderIndex): VersionHeader {
  const read = readOne(valuesOf(headers, PROTOCOL_VERSION_LOWER), PROTOCOL_VERSION_HEADER, false);
  if (read.kind === 'refused') return read.check as Extract<HeaderCheck, { ok: false }>;
  return { ok: true, version: read.kind === 'absent' ? undefined : read.text };
}

/**
 * The handshake revisions define no `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*`, so none is
 * required; but a proxy, a gateway or the host's own `authorize` may read one, so each one present
 * must agree with the body exactly as on 2026-07-28. Otherwise naming an older revision would
 * switch the match off and let headers say one call while the body makes another.
 */
export function checkCarriedHeaders(input: ModernHeaderInput): HeaderCheck {
  return checkMirrors(input.headers, input.message, input.headerFields, false);
}
