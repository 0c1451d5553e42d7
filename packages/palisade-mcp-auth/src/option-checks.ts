/** The small checks every option goes through, each throwing an `AuthError` that names the option. */
import { invalidOption, unknownOption } from './errors.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidOption(path, 'must be a plain object');
  return value;
}

export function refuseUnknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw unknownOption(`${prefix}${key}`);
  }
}

export function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw invalidOption(path, 'must be a non-empty string');
  return value;
}

export function optionalInteger(
  value: unknown,
  path: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidOption(path, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function optionalBoolean(value: unknown, path: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidOption(path, 'must be true or false');
  return value;
}

/** One string or a non-empty list of strings, each checked by `check`. */
export function stringOrList(
  value: unknown,
  path: string,
  check: (entry: unknown, at: string) => string,
): string[] {
  if (typeof value === 'string') return [check(value, path)];
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidOption(path, 'must be a string or a non-empty array of strings');
  }
  return value.map((entry, index) => check(entry, `${path}[${index}]`));
}

/** RFC 6749 §3.3 `scope-token`: visible ASCII but `"` and `\`, so a challenge can quote it as is. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function scopeToken(value: unknown, path: string): string {
  if (typeof value !== 'string' || !SCOPE_TOKEN.test(value)) {
    throw invalidOption(path, 'must be a scope: visible ASCII, no space, no " or \\');
  }
  return value;
}

export function scopeList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw invalidOption(path, 'must be an array of scopes');
  return [...new Set(value.map((entry, index) => scopeToken(entry, `${path}[${index}]`)))];
}
