/**
 * The shape of a checked server, as the protocol core reads it. `createServer` (server.ts) builds
 * one; the core only needs its type, so the type lives here and the core never imports the
 * constructor that itself imports the core.
 */
import type { Catalog } from '../catalog/catalog.js';
import type { CacheHint, LogLevel } from '../catalog/types.js';
import type { Revision } from '../revisions.js';
import type { ChangeHub } from './change-hub.js';
import type { RequestStateConfig } from './request-state.js';
import type { TasksConfig } from './tasks/config.js';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** The lists a 2026-07-28 cache hint is given for. */
export const CACHE_KEYS = ['discover', 'tools', 'resources', 'prompts'] as const;
export type CacheKey = (typeof CACHE_KEYS)[number];

/** A checked server: pass it to `serveStdio` or an HTTP transport. Its fields are Palisade's own. */
export interface Server {
  readonly info: ServerInfo;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly Revision[];
  readonly pageSize: number;
  readonly cache: Readonly<Record<CacheKey, CacheHint>>;
  /** @internal */
  readonly catalog: Catalog;
  /** @internal How `requestState` is sealed and bound (MRTR); undefined: none is issued or read. */
  readonly requestState: RequestStateConfig | undefined;
  /** @internal The host's task store and the handlers running as tasks here (tasks extension); undefined: not offered. */
  readonly tasks: TasksConfig | undefined;
  /** @internal Where announced changes reach open subscriptions. */
  readonly changes: ChangeHub;
  /** @internal The level a 2025-11-25 request logs at until (or, over stateless HTTP, instead of) `logging/setLevel`; undefined: off. */
  readonly defaultLogLevel: LogLevel | undefined;
  /** @internal Whether a request's `baggage` reaches handlers and the dispatch channel (default false). */
  readonly traceContext: { readonly baggage: boolean };
  /**
   * Tells every open subscription that a list changed (declare it first: `notifications.toolsListChanged`
   * and so on). Listen streams that asked for that kind, and initialized 2025-11-25 stdio clients, get
   * `notifications/<kind>/list_changed`; nobody else hears of it. A call the server cannot make
   * throws at once. Resolves once the change is sent: with the default bus every subscription here
   * has been told by then; with a shared `notifications.bus` it rejects when the bus could not send.
   */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void>;
  /** Tells subscribers of `uri` that it changed (declare `notifications.resourceSubscriptions` first); resolves or rejects as `notifyListChanged`. */
  notifyResourceUpdated(uri: string): Promise<void>;
}
