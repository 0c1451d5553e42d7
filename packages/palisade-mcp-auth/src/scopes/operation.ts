/**
 * What a request asks to do (its method, and the tool, prompt or resource it names), read from
 * the headers when they say it, else from the body. On 2026-07-28 `Mcp-Method` and `Mcp-Name`
 * are required and the server holds them to the body (a disagreement is -32020 before anything
 * runs), and on 2025-11-25 any it carries is held too: so a decision taken from them before the
 * body is read stands. A request whose headers do not say enough is decided once its body is
 * read (authorizeBody), by a reader bounded like the server's.
 */
import type { AuthorizeRequest } from 'palisade-mcp/http';
import { MAX_BODY_DEPTH } from '../limits.js';
import { namedFamily } from './scope-policy.js';

export type Operation =
  | { readonly known: true; readonly method: string | undefined; readonly name: string | undefined }
  | { readonly known: false };

const UNKNOWN: Operation = { known: false };

function single(request: AuthorizeRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && !value.includes(', ') ? value : undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** An `Mcp-Name` value: literal, or `=?base64?…?=` decoded strictly as the server decodes it. */
function headerName(value: string): string | undefined {
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (encoded === null) return value.startsWith('=?') ? undefined : value;
  const bytes = Buffer.from(encoded[1] as string, 'base64');
  if (bytes.toString('base64') !== encoded[1]) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

export function operationFromHeaders(request: AuthorizeRequest): Operation {
  const method = single(request, 'mcp-method');
  if (method === undefined) return UNKNOWN;
  if (namedFamily(method) === undefined) return { known: true, method, name: undefined };
  const raw = single(request, 'mcp-name');
  const name = raw === undefined ? undefined : headerName(raw);
  return name === undefined ? UNKNOWN : { known: true, method, name };
}

/**
 * The method and name from a body's bytes, or unknown when the bytes are not a JSON object this
 * reader would take: the server's reader refuses every such body too, but this one does not rely
 * on that and the caller refuses it itself. Nesting is counted before `JSON.parse` runs.
 */
export function operationFromBody(bytes: Uint8Array): Operation {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return UNKNOWN;
  }
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) return UNKNOWN;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return UNKNOWN;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return UNKNOWN;
  const { method, params } = message as Record<string, unknown>;
  if (typeof method !== 'string') return { known: true, method: undefined, name: undefined };
  const family = namedFamily(method);
  if (family === undefined) return { known: true, method, name: undefined };
  const fields = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const name = family === 'resources' ? fields['uri'] : fields['name'];
  return { known: true, method, name: typeof name === 'string' ? name : undefined };
}

/** Brackets outside strings, counted in one pass: a 1 MiB body of `[` is refused before it is parsed. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
