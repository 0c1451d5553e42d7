/**
 * What the protocol core asks of a transport. A transport delivers each server message it has
 * read (already through the bounded reader) to the sink, and says when its channel ends.
 * `send` settles when the message has been handed over; over HTTP, for a request, when the
 * exchange it opened is over, rejecting with a ClientError that belongs to that request alone.
 */
import type { McpHeaderField, Revision } from 'palisade-mcp/wire';
import type { ClientError } from '../errors.js';

export interface TransportSink {
  /** One message from the server. */
  message(message: Record<string, unknown>): void;
  /** Bytes on a shared channel that no call can be told apart from (stdio): every call in flight fails with it. */
  refusal(error: ClientError): void;
  /** The channel ended; no more messages will come. */
  closed(error: ClientError): void;
}

export interface SendContext {
  readonly signal?: AbortSignal;
  /** The revision in force; undefined while negotiating (before a handshake answered). */
  readonly revision: Revision | undefined;
  /** The called tool's `x-mcp-header` fields (2026-07-28 over HTTP). */
  readonly fields?: readonly McpHeaderField[];
}

export interface Transport {
  readonly kind: 'http' | 'stdio' | 'in-process';
  start(sink: TransportSink): Promise<void>;
  send(message: Readonly<Record<string, unknown>>, context: SendContext): Promise<void>;
  /** A handshake revision was agreed (2025 family): HTTP opens its standalone stream here. */
  handshakeDone?(revision: Revision): Promise<void> | void;
  /** The trust boundary on a URI a `resources/*` request carries (stdio); rejects to block. */
  checkResourceUri?(uri: string): Promise<void>;
  /** The URIs of a `resources/list` answer the trust boundary refuses (stdio). */
  refusedResourceUris?(uris: readonly string[]): Promise<ReadonlySet<string>>;
  close(): Promise<void>;
}
