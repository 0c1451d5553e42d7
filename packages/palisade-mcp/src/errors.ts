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
  | 'PALISADE_ERR_CONNECTOME_INVALID'
  | 'PALISADE_ERR_CONNECTOME_DUPLICATE_ID'
  | 'PALISADE_ERR_CONNECTOME_NFC_COLLISION'
  | 'PALISADE_ERR_CONNECTOME_DUPLICATE_EDGE'
  | 'PALISADE_ERR_CONNECTOME_DANGLING_EDGE'
  | 'PALISADE_ERR_CONNECTOME_LONE_SURROGATE'
  | 'PALISADE_ERR_CONNECTOME_FLOAT'
  | 'PALISADE_ERR_CONNECTOME_UNSAFE_INTEGER'
  | 'PALISADE_ERR_CONNECTOME_LABEL_VALUE'
  | 'PALISADE_ERR_CONNECTOME_PROVENANCE'
  | 'PALISADE_ERR_CONNECTOME_WINDOW_MISSING'
  | 'PALISADE_ERR_CONNECTOME_SIGNER'
  | 'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE'
  | 'PALISADE_ERR_CONNECTOME_NO_ENTRY'
  | 'PALISADE_ERR_CONNECTOME_UNREACHABLE'
  | 'PALISADE_ERR_CONNECTOME_MAX_EDGES'
  | 'PALISADE_ERR_CONNECTOME_ALL_PATHS_REFUSED'
  | 'PALISADE_ERR_CONNECTOME_UNKNOWN_TOOL'
  | 'PALISADE_ERR_CONNECTOME_MERGE_CONFLICT'
  | 'PALISADE_ERR_CONNECTOME_BOUND'
  | 'PALISADE_ERR_CONNECTOME_NOT_COLLECTING'
  | 'PALISADE_ERR_CONNECTOME_COLLECTOR_RUNNING'
  | 'PALISADE_ERR_CONNECTOME_TRACER_RUNNING'
  | 'PALISADE_ERR_CONNECTOME_SIDECAR'
  | 'PALISADE_ERR_CONNECTOME_DOT_CHAR'
  | 'PALISADE_ERR_CONNECTOME_XML_CHAR'
  | 'PALISADE_ERR_CLI_INPUT'
  /** `palisade connectome declared --static` without `palisade-mcp-static` installed beside it. */
  | 'PALISADE_ERR_CLI_STATIC_MISSING'
  /** `palisade demo` without `palisade-demo` installed beside palisade-mcp. */
  | 'PALISADE_ERR_CLI_DEMO_MISSING'
  /** A graph of schema 1 or 2: read back by no converter, named so the reader knows to re-export. */
  | 'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED'
  | 'PALISADE_ERR_CONNECTOME_NOT_A_PATH'
  | 'PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE'
  | 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'
  | 'PALISADE_ERR_CONNECTOME_PEER_NOT_CANONICAL'
  | 'PALISADE_ERR_CONNECTOME_PEER_UNVERIFIED'
  | 'PALISADE_ERR_CONNECTOME_DUPLICATE_PROCESS'
  | 'PALISADE_ERR_CONNECTOME_RESERVED_LABEL'
  /** `ctx.inputRequired` on 2025-11-25, which has no multi-round-trip requests: catch it to fall back. */
  | 'PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE';

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
