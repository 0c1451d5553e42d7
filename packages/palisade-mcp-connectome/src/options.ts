/**
 * The option checks the connectome's functions share, worded as the server's are (an unknown key
 * refused by name with the known ones, a value outside its range named with the range), so a host
 * reads one style of refusal from both packages; thrown as `ConnectomeError`.
 */
import { ConnectomeError } from './errors.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function refuseUnknownKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new ConnectomeError(
        'PALISADE_ERR_UNKNOWN_OPTION',
        `unknown option "${path === '' ? key : `${path}.${key}`}"; known options: ${allowed.join(', ')}`,
      );
    }
  }
}

export function requireInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      `option "${path}" must be an integer from ${min} to ${max}`,
    );
  }
  return value;
}
