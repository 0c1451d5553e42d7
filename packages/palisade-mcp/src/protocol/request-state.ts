/**
 * `requestState` (MRTR, 2026-07-28) is input from an attacker (spec §9). Palisade holds no key: it
 * builds the bytes, binding the host's state to who asked (the principal), what was asked (the
 * method and a SHA-256 digest of the params), an expiry and the round, and the host's sealer
 * protects them. On a retry every binding is checked again, and any failure is one refusal that
 * says nothing of which check failed: an attacker probing tokens learns only "not issued here".
 */
import { createHash } from 'node:crypto';
import { HostFault } from '../catalog/host-fault.js';
import type { JsonObject, RequestStateSealer } from '../catalog/types.js';
import { invalidOption } from '../errors.js';
import {
  DEFAULT_REQUEST_STATE_TTL_MS,
  MAX_INPUT_ROUNDS,
  MAX_REQUEST_STATE_BYTES,
  MAX_REQUEST_STATE_TTL_MS,
} from '../limits.js';
import {
  isPlainObject,
  refuseUnknownKeys,
  requireFunction,
  requireInteger,
  requireObject,
} from '../options.js';
import { canonicalJson } from './canonical-json.js';

export interface RequestStateConfig {
  readonly sealer: RequestStateSealer;
  readonly ttlMs: number;
  readonly principal: ((auth: unknown) => string) | undefined;
}

/** Checks the `requestState` server option once, at construction. */
export function requestStateConfig(value: unknown): RequestStateConfig | undefined {
  if (value === undefined) return undefined;
  const options = requireObject(value, 'requestState');
  refuseUnknownKeys(options, ['sealer', 'ttlMs', 'principal'], 'requestState');
  // Any object: a host may write its sealer as a class holding its key in a field of its own.
  const sealer = options['sealer'];
  if (typeof sealer !== 'object' || sealer === null)
    throw invalidOption('requestState.sealer', 'must be an object with seal and open functions');
  const seal = requireFunction<RequestStateSealer['seal']>(
    (sealer as Record<string, unknown>)['seal'],
    'requestState.sealer.seal',
  );
  const open = requireFunction<RequestStateSealer['open']>(
    (sealer as Record<string, unknown>)['open'],
    'requestState.sealer.open',
  );
  const ttlMs =
    options['ttlMs'] === undefined
      ? DEFAULT_REQUEST_STATE_TTL_MS
      : requireInteger(options['ttlMs'], 'requestState.ttlMs', 1, MAX_REQUEST_STATE_TTL_MS);
  const principal =
    options['principal'] === undefined
      ? undefined
      : requireFunction<(auth: unknown) => string>(options['principal'], 'requestState.principal');
  // Called as methods of the host's object, so a sealer written as a class keeps its `this`.
  return Object.freeze({
    sealer: Object.freeze({
      seal: (bytes: Uint8Array) => seal.call(sealer, bytes),
      open: (token: string) => open.call(sealer, token),
    }),
    ttlMs,
    principal,
  });
}

/** What a token is bound to: computed per request, only when a token is issued or presented. */
export interface Binding {
  readonly principal: string;
  readonly method: string;
  readonly digest: string;
}

/** The params a client must send again unchanged: everything but what MRTR itself adds. */
const UNBOUND_PARAMS = new Set(['_meta', 'inputResponses', 'requestState']);

/** Throws HostFault when the principal cannot be named: the same for every token, so nothing leaks. */
export function bindingOf(
  config: RequestStateConfig,
  auth: unknown,
  method: string,
  params: Readonly<JsonObject>,
): Binding {
  let principal: unknown;
  if (config.principal !== undefined) {
    try {
      principal = config.principal(auth);
    } catch (error) {
      throw new HostFault('requestState.principal threw', error);
    }
    if (typeof principal !== 'string') throw new HostFault('requestState.principal must return a string');
  } else {
    principal = auth === undefined ? '' : canonicalJson(auth);
    if (principal === undefined)
      throw new HostFault(
        'ctx.auth is not plain JSON data: give requestState.principal to name who a request acts for',
      );
  }
  const bound: JsonObject = {};
  for (const key of Object.keys(params)) if (!UNBOUND_PARAMS.has(key)) bound[key] = params[key];
  const text = canonicalJson(bound) ?? '';
  return {
    principal: principal as string,
    method,
    digest: createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}

export type Opened =
  | { readonly ok: true; readonly round: number; readonly hasState: boolean; readonly state: unknown }
  | { readonly ok: false };

const REFUSED: Opened = Object.freeze({ ok: false });

const ENVELOPE_KEYS = ['v', 'principal', 'method', 'digest', 'expires', 'round', 'state'];

/**
 * Opens and checks a token. Every failure (not a string, too long, the sealer refusing or
 * throwing, bytes that are not the envelope, another principal, method or params, expired, past
 * MAX_INPUT_ROUNDS) is the same `{ ok: false }`.
 */
export async function openRequestState(
  config: RequestStateConfig,
  token: unknown,
  binding: Binding,
  now: number,
): Promise<Opened> {
  if (typeof token !== 'string' || token.length === 0) return REFUSED;
  if (Buffer.byteLength(token, 'utf8') > MAX_REQUEST_STATE_BYTES) return REFUSED;
  let bytes: unknown;
  try {
    bytes = await config.sealer.open(token);
  } catch {
    // A sealer that throws on a forged token must not answer differently from one that returns undefined.
    return REFUSED;
  }
  if (!(bytes instanceof Uint8Array)) return REFUSED;
  let envelope: unknown;
  try {
    envelope = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return REFUSED;
  }
  if (!isPlainObject(envelope)) return REFUSED;
  if (Object.keys(envelope).some((key) => !ENVELOPE_KEYS.includes(key))) return REFUSED;
  const { v, principal, method, digest, expires, round } = envelope;
  if (v !== 1 || principal !== binding.principal || method !== binding.method || digest !== binding.digest)
    return REFUSED;
  if (typeof expires !== 'number' || !Number.isSafeInteger(expires) || now > expires) return REFUSED;
  if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 1 || round > MAX_INPUT_ROUNDS)
    return REFUSED;
  const hasState = Object.hasOwn(envelope, 'state');
  return { ok: true, round, hasState, state: hasState ? envelope['state'] : undefined };
}

/** Seals the envelope for round `round`. A sealer that throws or returns a bad token is a host fault. */
export async function sealRequestState(
  config: RequestStateConfig,
  binding: Binding,
  round: number,
  state: { readonly hasState: boolean; readonly state: unknown },
  now: number,
): Promise<string> {
  const envelope: JsonObject = {
    v: 1,
    principal: binding.principal,
    method: binding.method,
    digest: binding.digest,
    expires: now + config.ttlMs,
    round,
  };
  if (state.hasState) envelope['state'] = state.state;
  const text = canonicalJson(envelope);
  if (text === undefined) throw new HostFault('requestState state is not plain JSON data');
  let token: unknown;
  try {
    token = await config.sealer.seal(new TextEncoder().encode(text));
  } catch (error) {
    throw new HostFault('requestState.sealer.seal threw', error);
  }
  if (typeof token !== 'string' || token.length === 0)
    throw new HostFault('requestState.sealer.seal must return a non-empty string');
  if (Buffer.byteLength(token, 'utf8') > MAX_REQUEST_STATE_BYTES)
    throw new HostFault(`requestState.sealer.seal returned more than ${MAX_REQUEST_STATE_BYTES} bytes`);
  return token;
}
