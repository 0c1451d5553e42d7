/**
 * Refusals of the static read. They are caller bugs or a scope past a bound, so they throw;
 * everything the read could not see in a well-formed scope is listed in `incomplete` instead.
 * Match on `code`; `instanceof` works across two copies of the package through a `Symbol.for` brand.
 */

const BRAND = Symbol.for('palisade-mcp-static.error');

export type StaticErrorCode =
  | 'PALISADE_STATIC_ERR_UNKNOWN_OPTION'
  | 'PALISADE_STATIC_ERR_INVALID_OPTION'
  | 'PALISADE_STATIC_ERR_ROOT'
  | 'PALISADE_STATIC_ERR_TOO_MANY_FILES';

export class StaticAnalysisError extends Error {
  readonly code: StaticErrorCode;

  constructor(code: StaticErrorCode, message: string) {
    super(message);
    this.name = 'StaticAnalysisError';
    this.code = code;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
