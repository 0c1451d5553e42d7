/**
 * The value `ctx.inputRequired` makes (MRTR, 2026-07-28): checked when the handler makes it, then
 * recognised by the core only through a module-private WeakSet, so a host result that merely has
 * the same members (or a client's bytes echoed into one) is never taken for a request for input.
 */
import { mergeCapabilities, missingCapabilities } from '../catalog/client-capabilities.js';
import type { InputRequest, InputRequestMethod, InputRequired, JsonObject } from '../catalog/types.js';
import { invalidOption, PalisadeError } from '../errors.js';
import { MAX_INPUT_REQUEST_KEY_CHARS, MAX_INPUT_REQUESTS } from '../limits.js';
import { isPlainObject, refuseUnknownKeys } from '../options.js';
import { ALL_REVISIONS, type Revision } from '../revisions.js';
import { canonicalJson } from './canonical-json.js';

export interface InputRequiredValue {
  readonly requests: Readonly<Record<string, InputRequest>>;
  /** Whether the handler passed a `state`, which may itself be `null`. */
  readonly hasState: boolean;
  readonly state: unknown;
}

const MADE = new WeakSet<object>();

const METHODS: readonly InputRequestMethod[] = ['elicitation/create', 'sampling/createMessage', 'roots/list'];

/** `ctx.inputRequired` on a handshake revision with no session to ask the client through. */
export function inputRequiredUnavailable(revision: Revision): PalisadeError {
  return new PalisadeError(
    'PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE',
    `ctx.inputRequired needs 2026-07-28 or an HTTP session; this request is served under ${revision} without one`,
  );
}

/** `ctx.inputRequired` on a session once the client left a round unanswered, or the rounds ran out. */
export function inputUnanswered(why: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_INPUT_UNANSWERED', `the client's input is not available: ${why}`);
}

/**
 * What the client answered to one round of input requests sent on a session (a handshake revision
 * over HTTP with sessions on): the results by the handler's keys, and why any is missing.
 */
export interface InputAnswers {
  readonly responses: Readonly<Record<string, Readonly<JsonObject>>>;
  /** Undefined when every request was answered with a result. */
  readonly unanswered?: string;
}

/** Checks a handler's request for input and returns the branded, frozen value it returns. */
export function makeInputRequired(source: unknown): InputRequired {
  if (!isPlainObject(source)) throw invalidOption('inputRequired', 'must be given a plain object');
  refuseUnknownKeys(source, ['requests', 'state'], 'inputRequired');
  const given = source['requests'];
  if (!isPlainObject(given)) throw invalidOption('inputRequired.requests', 'must be a plain object');
  const keys = Object.keys(given);
  if (keys.length > MAX_INPUT_REQUESTS)
    throw invalidOption('inputRequired.requests', `may hold at most ${MAX_INPUT_REQUESTS} requests`);
  const requests: Record<string, InputRequest> = Object.create(null);
  for (const key of keys) {
    const path = `inputRequired.requests[${JSON.stringify(key.slice(0, MAX_INPUT_REQUEST_KEY_CHARS))}]`;
    if (key.length === 0 || key.length > MAX_INPUT_REQUEST_KEY_CHARS)
      throw invalidOption(
        'inputRequired.requests',
        `keys must be 1 to ${MAX_INPUT_REQUEST_KEY_CHARS} characters`,
      );
    const entry = given[key];
    if (!isPlainObject(entry)) throw invalidOption(path, 'must be a plain object');
    refuseUnknownKeys(entry, ['method', 'params'], path);
    const method = entry['method'];
    if (!(METHODS as readonly unknown[]).includes(method))
      throw invalidOption(`${path}.method`, `must be one of ${METHODS.join(', ')}`);
    const params = entry['params'];
    if (!isPlainObject(params) || canonicalJson(params) === undefined)
      throw invalidOption(`${path}.params`, 'must be a plain object of JSON data');
    requests[key] = Object.freeze({
      method: method as InputRequestMethod,
      params: copyOf(params) as JsonObject,
    });
  }
  const hasState = Object.hasOwn(source, 'state') && source['state'] !== undefined;
  if (hasState && canonicalJson(source['state']) === undefined)
    throw invalidOption('inputRequired.state', 'must be plain JSON data');
  const value: InputRequiredValue = Object.freeze({
    requests: Object.freeze(requests),
    hasState,
    state: hasState ? copyOf(source['state']) : undefined,
  });
  MADE.add(value);
  return value as unknown as InputRequired;
}

/** A copy the handler cannot change after returning it. */
function copyOf(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

export function isInputRequired(value: unknown): value is InputRequired {
  return typeof value === 'object' && value !== null && MADE.has(value);
}

export function inputRequiredValue(value: InputRequired): InputRequiredValue {
  return value as unknown as InputRequiredValue;
}

/**
 * The capabilities an input request needs from this request's `clientCapabilities` (spec §9:
 * never ask for what the client did not declare), every one lacked gathered in one refusal.
 */
export function lackedForInput(value: InputRequiredValue, declared: unknown): JsonObject | undefined {
  let lacked: JsonObject | undefined;
  for (const request of Object.values(value.requests)) {
    const missing = missingCapabilities(neededBy(request), declared);
    if (missing !== undefined) lacked = mergeCapabilities(lacked ?? {}, missing);
  }
  return lacked;
}

/**
 * The client capabilities `declared` that `revision` defines. Elicitation first appears in
 * 2025-06-18 and its URL mode in 2025-11-25: a client on an older revision that declares them
 * anyway (the official SDKs do) is not sent a request its revision has no schema for, and the
 * handler is refused -32021 exactly as if the client had not declared them.
 */
export function definedCapabilities(declared: unknown, revision: Revision): unknown {
  if (!isPlainObject(declared) || !isPlainObject(declared['elicitation'])) return declared;
  if (olderThan(revision, '2025-06-18')) {
    const { elicitation: _dropped, ...rest } = declared;
    return rest;
  }
  if (olderThan(revision, '2025-11-25') && Object.hasOwn(declared['elicitation'], 'url')) {
    const { url: _dropped, ...elicitation } = declared['elicitation'];
    return { ...declared, elicitation };
  }
  return declared;
}

/** ALL_REVISIONS is newest first. */
function olderThan(revision: Revision, than: Revision): boolean {
  return ALL_REVISIONS.indexOf(revision) > ALL_REVISIONS.indexOf(than);
}

function neededBy(request: InputRequest): JsonObject {
  switch (request.method) {
    case 'elicitation/create':
      return request.params['mode'] === 'url' ? { elicitation: { url: {} } } : { elicitation: {} };
    case 'sampling/createMessage':
      return { sampling: {} };
    case 'roots/list':
      return { roots: {} };
  }
}
