/**
 * The shape of a checked server, as the protocol core reads it. `createServer` (server.ts) builds
 * one; the core only needs its type, so the type lives here and the core never imports the
 * constructor that itself imports the core.
 */
import type { Catalog } from '../catalog/catalog.js';
import type { CacheHint } from '../catalog/types.js';
import type { Revision } from '../revisions.js';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** The lists a 2026-07-28 cache hint is given for. */
export const CACHE_KEYS = ['discover', 'tools', 'resources', 'prompts'] as const;

/** A checked server: pass it to `runStdio` or an HTTP transport. Its fields are Palisade's own. */
export interface Server {
  readonly info: ServerInfo;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly Revision[];
  readonly pageSize: number;
  readonly cache: Readonly<Record<(typeof CACHE_KEYS)[number], CacheHint>>;
  /** @internal */
  readonly catalog: Catalog;
}
