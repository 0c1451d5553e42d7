/**
 * `hostAllowList()`: the handler's Host rule as an Express/Connect middleware, for an app that
 * serves other routes beside MCP (a health check, a page) and wants them behind the same
 * DNS-rebinding defence. A page on an attacker's name that resolves to 127.0.0.1 sends that name
 * in Host; answering only our own names keeps it from reading anything the app serves.
 *
 * The answer is the handler's own (host-origin.ts, refusals.ts): 421 for a name not on the list,
 * 400 for two Host lines, each closing the connection without reading the body. Over HTTP/2 the
 * name judged is `:authority`, and a `host` field disagreeing with it is 400. Loopback names
 * by default, since a server on loopback is the one DNS rebinding reaches. An HTTP/1.1 request
 * with no Host is 400 (RFC 9112 §3.2), once its server lets it through (`requireHostHeader: false`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Http2ServerRequest } from 'node:http2';
import { invalidOption } from '../../errors.js';
import { MAX_HEADER_LINES } from '../../limits.js';
import { isPlainObject, refuseUnknownKeys } from '../../options.js';
import { indexHeaders } from '../headers/index.js';
import { checkAuthority, checkHost } from '../host-origin.js';
import { allowedHostName, stringList } from '../http-options.js';
import { publishRefusal, REFUSALS } from '../refusals.js';
import { writeRefusal } from '../respond.js';
import { turnOf, waitTurn } from './connection-turn.js';

export interface HostAllowListOptions {
  /** Host names (ports ignored), compared case-insensitively. Default: localhost, 127.0.0.1, ::1. */
  readonly allowedHosts?: readonly string[];
}

export type HostAllowListMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1']);

function checkOptions(options: unknown): ReadonlySet<string> {
  if (options === undefined) return LOOPBACK;
  if (!isPlainObject(options)) throw invalidOption('hostAllowList options', 'must be a plain object');
  refuseUnknownKeys(options, ['allowedHosts'], '');
  const given = options['allowedHosts'];
  if (given === undefined) return LOOPBACK;
  // 'any' is the handler's way to switch the rule off; a middleware that admits every name is none.
  if (given === 'any')
    throw invalidOption('allowedHosts', "must list host names: 'any' would admit every Host");
  const allowed = stringList(given, 'allowedHosts', allowedHostName);
  if (allowed === undefined || allowed.size === 0) {
    throw invalidOption('allowedHosts', 'must name at least one host');
  }
  return allowed;
}

export function hostAllowList(options?: HostAllowListOptions): HostAllowListMiddleware {
  const allowed = checkOptions(options);
  const judge = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    // A second Host past the lines its server keeps would be invisible: as the handler, refuse first.
    if (req.rawHeaders.length > 2 * MAX_HEADER_LINES) {
      publishRefusal(REFUSALS.headLines);
      writeRefusal(res, REFUSALS.headLines);
      return;
    }
    const headers = indexHeaders(req.rawHeaders);
    // Over HTTP/2 (node:http2's compatibility API) the target is `:authority` and `host` is
    // usually absent: judged as the handler judges it, a `host` that disagrees is refused 400.
    const authority = req.headers[':authority'];
    const verdict =
      (req as unknown) instanceof Http2ServerRequest
        ? checkAuthority(typeof authority === 'string' ? authority : undefined, headers, allowed)
        : checkHost(headers, allowed);
    if (verdict === 'ok') {
      next();
      return;
    }
    const refusal =
      verdict === 'repeated'
        ? REFUSALS.hostRepeated
        : verdict === 'mismatch'
          ? REFUSALS.hostAuthority
          : verdict === 'missing' && req.httpVersion === '1.1'
            ? REFUSALS.hostMissing
            : REFUSALS.hostNotAllowed;
    // Published on the refusal channel (HTTP_REFUSAL_CHANNEL), as the handler's refusals are.
    publishRefusal(refusal);
    writeRefusal(res, refusal);
  };
  return (req, res, next) => {
    // A request pipelined behind an answer still being written goes on, to this check and every
    // route after it, only on its turn: never behind an answer that closes the connection.
    const turn = turnOf(res);
    if (turn === 'now') judge(req, res, next);
    else if (turn === 'wait') waitTurn(req, res, () => judge(req, res, next), tooDeep);
  };
}

function tooDeep(): void {
  publishRefusal(REFUSALS.pipelineTooDeep);
}
