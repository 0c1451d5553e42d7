/**
 * Errors raised in the host's code: an option refused at construction. A refused request is not
 * an error: it is an answer (rules.ts). Match on `code`; `instanceof` works across two copies of
 * the package through a `Symbol.for` brand.
 */

const BRAND = Symbol.for('palisade-mcp-auth.error');

export type AuthErrorCode = 'PALISADE_AUTH_ERR_UNKNOWN_OPTION' | 'PALISADE_AUTH_ERR_INVALID_OPTION';

export class AuthError extends Error {
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string) {
    super(message);
    this.name = 'AuthError';
    this.code = code;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** One option refused at construction, naming it. */
export function invalidOption(path: string, rule: string): AuthError {
  return new AuthError('PALISADE_AUTH_ERR_INVALID_OPTION', `option "${path}" ${rule}`);
}

export function unknownOption(path: string): AuthError {
  return new AuthError('PALISADE_AUTH_ERR_UNKNOWN_OPTION', `unknown option "${path}"`);
}
