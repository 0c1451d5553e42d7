/**
 * The steps of an exchange that do not depend on how the request arrived: judging `authorize`'s
 * verdict, and from the body's bytes to one decoded message (`authorizeBody`, then the bounded
 * JSON reader). The `node:http` handler (node/handler.ts) and the fetch handler (fetch/handler.ts) both
 * run them, so a rule changed here changes for both; each writes the refusal its own way.
 */
import type { ServerResponse } from 'node:http';
import type { Server } from '../server.js';
import { readJsonMessage } from '../wire/json-reader.js';
import { type AnswerInput, answer } from './answer.js';
import { type RefusalStatus, runAuthorize, type Verdict } from './authorize.js';
import type { AuthorizeRequest, CheckedHttpOptions, HttpLogEvent } from './http-options.js';
import { type HttpRefusal, lateRefusal, publishRefusal, REFUSALS, renamed } from './refusals.js';

/** A refusal to write, with the host's headers (`www-authenticate`, `retry-after`) and log reason. */
export interface Refused {
  readonly refusal: HttpRefusal;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly reason?: string | undefined;
}

/** What the host is told when a body parser in front of us already took the stream. */
export const BODY_CONSUMED_FAULT =
  'the request body was consumed before palisade saw it: mount palisade before any body parser';

/** Published on the refusal channel and logged through `onLog`; the caller then writes it. */
export function reportRefusal(onLog: (event: HttpLogEvent) => void, refused: Refused): void {
  const { refusal, reason } = refused;
  publishRefusal(refusal);
  // `reason` is left out rather than set to undefined: a host's log sees the key only when it has text.
  onLog(
    reason === undefined
      ? { kind: 'refusal', rule: refusal.rule, status: refusal.status }
      : { kind: 'refusal', rule: refusal.rule, status: refusal.status, reason },
  );
}

const BY_STATUS: Readonly<Record<RefusalStatus, HttpRefusal>> = {
  400: REFUSALS.badRequest,
  401: REFUSALS.unauthorized,
  403: REFUSALS.forbidden,
  429: REFUSALS.tooMany,
  503: REFUSALS.unavailable,
};

export type Admission = { readonly ok: true; readonly auth: unknown } | ({ readonly ok: false } & Refused);

/** `authorize`'s verdict: the `auth` it admits with, or the refusal. A fault is reported to the host. */
export function judgeAuthorize(verdict: Verdict, options: CheckedHttpOptions): Admission {
  switch (verdict.kind) {
    case 'admit':
      return { ok: true, auth: verdict.auth };
    case 'fault':
      options.onFault('authorize threw or rejected', verdict.cause);
      return { ok: false, refusal: REFUSALS.authorizeFault };
    case 'timeout':
      return {
        ok: false,
        refusal: REFUSALS.authorizeTimeout,
        reason: 'authorize did not settle before the read deadline',
      };
    case 'refuse': {
      const refusal = renamed(BY_STATUS[verdict.status], verdict.rule);
      return { ok: false, refusal, headers: verdict.headers, reason: verdict.reason };
    }
  }
}

export type MessageRead =
  | { readonly ok: true; readonly message: Record<string, unknown> }
  | ({ readonly ok: false } & Refused);

/**
 * The whole body, read: `authorizeBody` (if given) sees its bytes, then the bounded JSON reader
 * decodes it. Settled at once (no promise) when there is no hook or the hook answers
 * synchronously: the common request then decodes in the same turn its body arrived.
 */
export function bodyMessage(
  options: CheckedHttpOptions,
  request: AuthorizeRequest,
  bytes: Uint8Array,
  deadline: number,
): MessageRead | Promise<MessageRead> {
  const hook = options.authorizeBody;
  if (hook === undefined) return decodeBody(bytes);
  // A copy: the hook may keep or change its bytes without touching what is decoded.
  const verdict = runAuthorize(() => hook(request, new Uint8Array(bytes)), deadline);
  return verdict instanceof Promise
    ? verdict.then((settled) => judgeBody(options, settled, bytes))
    : judgeBody(options, verdict, bytes);
}

function judgeBody(options: CheckedHttpOptions, verdict: Verdict, bytes: Uint8Array): MessageRead {
  if (verdict.kind === 'fault') {
    options.onFault('authorizeBody threw or rejected', verdict.cause);
    return { ok: false, refusal: REFUSALS.authorizeBodyFault };
  }
  if (verdict.kind === 'refuse') {
    // Always 403: the credential was judged before the body was read. What may still be missing
    // is a scope the body's method or name needs, which RFC 6750 §3.1 challenges on a 403; a
    // challenge written for another status is not sent under this one.
    const challenge = verdict.status === 403 ? verdict.headers['www-authenticate'] : undefined;
    return {
      ok: false,
      refusal: renamed(REFUSALS.authorizeBody, verdict.rule),
      headers: challenge === undefined ? {} : { 'www-authenticate': challenge },
      reason: verdict.reason,
    };
  }
  if (verdict.kind !== 'admit') {
    return { ok: false, refusal: REFUSALS.authorizeBody, reason: 'authorizeBody did not settle' };
  }
  return decodeBody(bytes);
}

function decodeBody(bytes: Uint8Array): MessageRead {
  const read = readJsonMessage(bytes);
  if (!read.ok) {
    const { rule, code, message } = read.refusal;
    return { ok: false, refusal: lateRefusal(rule, 400, code, message) };
  }
  return { ok: true, message: read.value };
}

/** What the exchange settled before the core runs: the message, its headers, who the caller is. */
export type Admitted = Pick<AnswerInput, 'message' | 'headers' | 'auth' | 'mayStream'>;

/** The core's answer to an admitted message, written to `res` with the host's fault and log hooks. */
export function answerAdmitted(
  server: Server,
  options: CheckedHttpOptions,
  admitted: Admitted,
  res: ServerResponse,
): void {
  answer({ server, ...admitted, reportFault: options.onFault, onLog: options.onLog }, res);
}
