/**
 * The client's one error class. Every failure a host sees carries a stable `code`; a refusal of
 * the server's bytes also names its `rule`, and a JSON-RPC error answer keeps the server's
 * `code`, `message` and `data` in `rpc` (the message is the server's text: show it as such).
 * No error's message quotes a server byte beyond a bounded name. `instanceof` works across two
 * copies of the package through a `Symbol.for` brand.
 */

const BRAND = Symbol.for('palisade-mcp-client.error');

export type ClientErrorCode =
  /** An option refused at construction, naming it. */
  | 'PALISADE_CLIENT_ERR_UNKNOWN_OPTION'
  | 'PALISADE_CLIENT_ERR_INVALID_OPTION'
  /** A server message the bounded reader refused (`rule`: too-large, too-deep, repeated-key, ...). */
  | 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED'
  /** An SSE stream over a bound (`rule`: line-too-long, event-too-large, too-many-events, idle, event-deadline). */
  | 'PALISADE_CLIENT_ERR_SSE_REFUSED'
  /** A response whose Content-Type is neither application/json nor text/event-stream. */
  | 'PALISADE_CLIENT_ERR_CONTENT_TYPE'
  /** An HTTP status the exchange cannot go on from (`status`). */
  | 'PALISADE_CLIENT_ERR_HTTP_STATUS'
  /** A redirect: never followed across origins, never with credentials. */
  | 'PALISADE_CLIENT_ERR_REDIRECT_REFUSED'
  /** A result that does not have the shape its method and revision require. */
  | 'PALISADE_CLIENT_ERR_RESULT_INVALID'
  /** `structuredContent` that does not satisfy the tool's `outputSchema`. */
  | 'PALISADE_CLIENT_ERR_STRUCTURED_CONTENT'
  /** The server answered with a JSON-RPC error (`rpc`). */
  | 'PALISADE_CLIENT_ERR_RPC'
  | 'PALISADE_CLIENT_ERR_TIMEOUT'
  | 'PALISADE_CLIENT_ERR_ABORTED'
  /** The client was closed, or the connection ended under a call. */
  | 'PALISADE_CLIENT_ERR_CLOSED'
  /** The connection failed, or a stream ended before the answer. */
  | 'PALISADE_CLIENT_ERR_TRANSPORT'
  /** No revision both sides speak. */
  | 'PALISADE_CLIENT_ERR_NEGOTIATION'
  /** The trust boundary: consent denied, or a consent answer that could not be read. */
  | 'PALISADE_CLIENT_ERR_CONSENT_DENIED'
  | 'PALISADE_CLIENT_ERR_CONSENT_ERROR'
  /** The target policy: an address the request may not reach (`rule`). */
  | 'PALISADE_CLIENT_ERR_TARGET_REFUSED'
  /** An input request (MRTR) the client cannot answer, or more rounds than the bound. */
  | 'PALISADE_CLIENT_ERR_INPUT_REQUIRED'
  /** The OAuth client refused a step of the flow (`rule`). */
  | 'PALISADE_CLIENT_ERR_AUTH'
  /** The stdio server could not be started. */
  | 'PALISADE_CLIENT_ERR_SPAWN';

export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface ClientErrorDetails {
  readonly rule?: string;
  readonly status?: number;
  readonly rpc?: RpcErrorBody;
  readonly cause?: unknown;
}

export class ClientError extends Error {
  readonly code: ClientErrorCode;
  readonly rule: string | undefined;
  readonly status: number | undefined;
  readonly rpc: RpcErrorBody | undefined;

  constructor(code: ClientErrorCode, message: string, details: ClientErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ClientError';
    this.code = code;
    this.rule = details.rule;
    this.status = details.status;
    this.rpc = details.rpc;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

export function invalidOption(path: string, rule: string): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_INVALID_OPTION', `option "${path}" ${rule}`);
}

export function unknownOption(path: string): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_UNKNOWN_OPTION', `unknown option "${path}"`);
}
