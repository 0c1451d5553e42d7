/**
 * Client capabilities a catalog item or an input request needs (2026-07-28 `ClientCapabilities`),
 * and which of them a request lacks. What is missing is answered -32021 with
 * `data.requiredCapabilities` shaped like `ClientCapabilities`: `{ sampling: {} }`.
 */
import { PalisadeError } from '../errors.js';
import { isPlainObject } from '../options.js';
import type { JsonObject } from './types.js';

/** The keys the 2026-07-28 schema defines for `ClientCapabilities`. */
export const CLIENT_CAPABILITY_KEYS = [
  'elicitation',
  'experimental',
  'extensions',
  'roots',
  'sampling',
] as const;

/**
 * Checks a definition's `requiredClientCapabilities` once, at construction: a plain object whose
 * every key is a known capability and whose every value is a plain object of JSON data. A typo
 * (`sampeling`) would otherwise refuse every client, or none.
 */
export function requiredCapabilities(value: unknown, path: string): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalid(path, 'must be a plain object');
  for (const [key, entry] of Object.entries(value)) {
    if (!(CLIENT_CAPABILITY_KEYS as readonly string[]).includes(key)) {
      throw invalid(
        `${path}.${key}`,
        `is not a client capability; known: ${CLIENT_CAPABILITY_KEYS.join(', ')}`,
      );
    }
    if (!isPlainObject(entry)) throw invalid(`${path}.${key}`, 'must be a plain object');
  }
  let copy: JsonObject;
  try {
    copy = JSON.parse(JSON.stringify(value)) as JsonObject;
  } catch {
    throw invalid(path, 'must be plain JSON data');
  }
  return deepFreeze(copy);
}

function invalid(path: string, rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_CATALOG_INVALID', `${path} ${rule}`);
}

function deepFreeze(value: JsonObject): JsonObject {
  for (const entry of Object.values(value)) if (isPlainObject(entry)) deepFreeze(entry);
  return Object.freeze(value);
}

/**
 * The part of `required` that `declared` does not cover, or undefined when it covers all: an
 * object in `required` needs an object at the same place in `declared` covering its members; any
 * other value needs the same value there.
 */
export function missingCapabilities(required: JsonObject, declared: unknown): JsonObject | undefined {
  const have = isPlainObject(declared) ? declared : {};
  let missing: JsonObject | undefined;
  for (const [key, want] of Object.entries(required)) {
    const present = Object.hasOwn(have, key) ? have[key] : undefined;
    let lack: unknown;
    if (isPlainObject(want)) {
      if (!isPlainObject(present)) lack = want;
      else lack = missingCapabilities(want, present);
    } else if (present !== want) {
      lack = want;
    }
    if (lack === undefined) continue;
    missing ??= {};
    missing[key] = lack;
  }
  return missing;
}

/** Adds `more` into `into`, member by member, for a refusal naming every capability lacked. */
export function mergeCapabilities(into: JsonObject, more: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(more)) {
    const current = into[key];
    into[key] =
      isPlainObject(current) && isPlainObject(value) ? mergeCapabilities({ ...current }, value) : value;
  }
  return into;
}
