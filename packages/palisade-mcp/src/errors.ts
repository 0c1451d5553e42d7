/**
 * Errors raised in the host's code (construction, misuse). They never cross the wire: the wire
 * carries JSON-RPC error objects built in `protocol/codes.ts`. Match on `code`, not on the
 * message; `instanceof` works across two copies of the package through a `Symbol.for` brand.
 */

const BRAND = Symbol.for('palisade-mcp.error');

export type PalisadeErrorCode =
  | 'PALISADE_ERR_INVALID_OPTION'
  | 'PALISADE_ERR_UNKNOWN_OPTION'
  | 'PALISADE_ERR_CATALOG_DUPLICATE'
  | 'PALISADE_ERR_CATALOG_INVALID'
  | 'PALISADE_ERR_SCHEMA_INVALID'
  | 'PALISADE_ERR_SCHEMA_UNSAFE'
  /** A Standard Schema (zod, valibot, ArkType) holding what its JSON Schema cannot carry: a refinement, a transform, a default. */
  | 'PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE'
  | 'PALISADE_ERR_URI_TEMPLATE'
  | 'PALISADE_ERR_TRANSPORT'
  | 'PALISADE_ERR_UNDECLARED_CHANGE'
  | 'PALISADE_ERR_INVALID_ARGUMENT'
  /** `palisade demo` without `palisade-demo` installed beside palisade-mcp. */
  | 'PALISADE_ERR_CLI_DEMO_MISSING'
  /** `palisade connectome` without `palisade-mcp-connectome` installed beside palisade-mcp. */
  | 'PALISADE_ERR_CLI_CONNECTOME_MISSING'
  /**
   * `ctx.inputRequired` on a handshake revision with no session to carry a request to the client
   * (stdio, stateless HTTP): catch it to fall back.
   */
  | 'PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE'
  /**
   * `ctx.inputRequired` on an HTTP session after the client left the last round unanswered (its
   * wait lapsed, it answered with an error, the session ended) or after MAX_INPUT_ROUNDS rounds:
   * the message says which. Catch it to answer without the input.
   */
  | 'PALISADE_ERR_INPUT_UNANSWERED';

export class PalisadeError extends Error {
  readonly code: PalisadeErrorCode;

  constructor(code: PalisadeErrorCode, message: string) {
    super(message);
    this.name = 'PalisadeError';
    this.code = code;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** Construction-time refusal of one option, naming it. */
export function invalidOption(path: string, rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_INVALID_OPTION', `option "${path}" ${rule}`);
}
