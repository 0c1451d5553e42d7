/** Option checks shared by every constructor: unknown keys refused by name, types checked once. */
import { invalidOption, unknownOption } from './errors.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function checkObject(
  value: unknown,
  path: string,
  allowed: readonly string[],
): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw invalidOption(path, 'must be a plain object');
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw unknownOption(path === '' ? key : `${path}.${key}`);
  }
  return value;
}

export function optionalFunction<T>(value: unknown, path: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw invalidOption(path, 'must be a function');
  return value as T;
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidOption(path, 'must be a boolean');
  return value;
}

export function positiveInteger(value: unknown, path: string, fallback: number, max = 2_147_483_647): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > max) {
    throw invalidOption(path, `must be an integer from 1 to ${max}`);
  }
  return value as number;
}

export function stringList(value: unknown, path: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw invalidOption(path, 'must be an array of strings');
  }
  return Object.freeze([...(value as string[])]);
}

export function stringRecord(value: unknown, path: string): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (!isPlainObject(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    throw invalidOption(path, 'must be an object of string values');
  }
  for (const [name, item] of Object.entries(value)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw invalidOption(`${path}.${name}`, 'is not a header name');
    if (/[\r\n\0]/.test(item as string)) throw invalidOption(`${path}.${name}`, 'holds CR, LF or NUL');
    if (name.toLowerCase() === 'host')
      throw invalidOption(`${path}.${name}`, 'is set from the URL, never by the host');
  }
  return Object.freeze({ ...(value as Record<string, string>) });
}
