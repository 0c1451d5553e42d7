/**
 * Construction-time checks shared by every options object: an unknown key is refused by name
 * (a typo like `pageSzie` must not silently fall back to a default), and each value is checked
 * for its shape once, so nothing is re-validated per request.
 */
import { invalidOption, PalisadeError } from './errors.js';
import { isPlainObject } from './wire/plain-object.js';

export { isPlainObject };

export function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidOption(path, 'must be a plain object');
  return value;
}

export function refuseUnknownKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new PalisadeError(
        'PALISADE_ERR_UNKNOWN_OPTION',
        `unknown option "${path === '' ? key : `${path}.${key}`}"; known options: ${allowed.join(', ')}`,
      );
    }
  }
}

export function requireString(value: unknown, path: string, { nonEmpty = true } = {}): string {
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    throw invalidOption(path, nonEmpty ? 'must be a non-empty string' : 'must be a string');
  }
  return value;
}

export function optionalString(value: unknown, path: string): string | undefined {
  return value === undefined ? undefined : requireString(value, path, { nonEmpty: false });
}

export function requireFunction<T extends (...args: never[]) => unknown>(value: unknown, path: string): T {
  if (typeof value !== 'function') throw invalidOption(path, 'must be a function');
  return value as T;
}

export function requireArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw invalidOption(path, 'must be an array');
  return value;
}

export function requireInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidOption(path, `must be an integer from ${min} to ${max}`);
  }
  return value;
}
