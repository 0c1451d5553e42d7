/**
 * Errors the connectome raises in the host's code: a graph, a query, an option or a CLI input
 * refused. They never cross the MCP wire. Match on `code`, not on the message; the codes are the
 * ones these refusals had while the connectome was part of `palisade-mcp`, so a host matching on
 * them is unaffected by the move. `instanceof ConnectomeError` works across two copies of this
 * package through a `Symbol.for` brand, as `ConnectomeError` does for the server's family.
 */

const BRAND = Symbol.for('palisade-mcp-connectome.error');

export type ConnectomeErrorCode =
  /** An option of a connectome function that is not of its shape, or out of its range. */
  | 'PALISADE_ERR_INVALID_OPTION'
  /** An option the function does not take, named with the ones it does. */
  | 'PALISADE_ERR_UNKNOWN_OPTION'
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
  /** A graph of schema 1 or 2: read back by no converter, named so the reader knows to re-export. */
  | 'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED'
  | 'PALISADE_ERR_CONNECTOME_NOT_A_PATH'
  | 'PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE'
  | 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'
  | 'PALISADE_ERR_CONNECTOME_PEER_NOT_CANONICAL'
  | 'PALISADE_ERR_CONNECTOME_PEER_UNVERIFIED'
  | 'PALISADE_ERR_CONNECTOME_DUPLICATE_PROCESS'
  | 'PALISADE_ERR_CONNECTOME_RESERVED_LABEL'
  /** `palisade connectome`: an input file unreadable, too large, or not the JSON it must be. */
  | 'PALISADE_ERR_CLI_INPUT'
  /** `palisade connectome declared --static` without `palisade-mcp-static` installed beside it. */
  | 'PALISADE_ERR_CLI_STATIC_MISSING';

export class ConnectomeError extends Error {
  readonly code: ConnectomeErrorCode;

  constructor(code: ConnectomeErrorCode, message: string) {
    super(message);
    this.name = 'ConnectomeError';
    this.code = code;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
