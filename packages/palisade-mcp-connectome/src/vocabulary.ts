/**
 * The connectome's closed vocabularies. Every one of these names is written into hashed bytes
 * under its field, so a name here is part of the schema-3 format, not an implementation detail.
 */

/**
 * What kind of part a node is. `process` is the Node.js stand-in for the BEAM's registered
 * process: an execution context that receives messages under a name the host gives it (the main
 * thread, a `worker_threads` Worker, a child process, a named MessagePort or BroadcastChannel).
 * Node has no registry of names, and thread ids and pids are counters, so the host's name is
 * the identity; the kind keeps the original's spelling so a schema-3 verifier reads it unchanged.
 */
export const NODE_KINDS = ['server', 'tool', 'resource', 'prompt', 'process', 'module'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/**
 * Granularity, finest first. `function` replaces the original's `mfa` (module, function, arity):
 * a JavaScript function has no arity that identifies it. Catalog nodes and the server sit at
 * `server`. A graph keeps the level it was built at; collapsing levels is only ever a view.
 */
export const LEVELS = ['function', 'module', 'boundary', 'server'] as const;
export type Level = (typeof LEVELS)[number];

/** `invoke` a call, `read` a resource or prompt read, `message` a send, `supervise` a parent to its child. */
export const EDGE_KINDS = ['invoke', 'read', 'message', 'supervise'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** Which graph asserted an edge: what can happen (`declared`) or what did (`observed`). */
export const PROVENANCES = ['declared', 'observed'] as const;
export type Provenance = (typeof PROVENANCES)[number];

/**
 * The slot for a consumer's policy verdict. The package only ever writes `unset`, meaning "no
 * sign was handed to this package", never "no policy exists"; a consumer writes the others by
 * building edges with them. `ungoverned` is an affirmative statement that no rule applies.
 */
export const SIGNS = ['allow', 'deny', 'hold', 'ungoverned', 'unset'] as const;
export type Sign = (typeof SIGNS)[number];

/** The digests the envelope can name; the name is written into the hashed bytes. */
export const HASH_ALGORITHMS = ['sha256', 'sha384', 'sha512'] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** The byte format's version, written first in every envelope and record. */
export const SCHEMA_VERSION = 3;

export function isMember<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/**
 * The URIs of the connectome's own resources (`resources.ts`). The collector does not record reads
 * of them: reading the connectome must leave what it answers unchanged.
 */
export const CONNECTOME_DECLARED_URI = 'connectome://declared';
export const CONNECTOME_OBSERVED_URI = 'connectome://observed';
export const CONNECTOME_DIFF_URI = 'connectome://diff';
