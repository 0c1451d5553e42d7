/**
 * The plain, JSON-able result of a static read. The connectome's declared builder takes it as
 * data; nothing here is a class, a Map or a function, and every list is sorted by UTF-16 code
 * units so two reads of the same tree give the same JSON.
 */

export const STATIC_LEVELS = ['module', 'function', 'boundary'] as const;
export type StaticLevel = (typeof STATIC_LEVELS)[number];

/**
 * `module` a source file in scope (id: its path relative to root, POSIX separators);
 * `function` a top-level function (id: `<module>#<name>`);
 * `boundary` a group of in-scope modules; `package` an npm package (id `npm:<name>`) and
 * `builtin` a Node.js built-in (id `node:<name>`), both only at the boundary level.
 */
export type StaticNodeKind = 'module' | 'function' | 'boundary' | 'package' | 'builtin';

export interface StaticNode {
  readonly id: string;
  readonly kind: StaticNodeKind;
}

/** `import`: loading `from` loads `to` (static, re-export, literal `import()`, literal `require`). `call`: `from` calls `to`. */
export type StaticEdgeKind = 'import' | 'call';

export interface StaticEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: StaticEdgeKind;
}

/** Why something is in the completeness bound; see the README for each. */
export type IncompleteReason =
  | 'dynamic-import'
  | 'dynamic-require'
  | 'computed-call'
  | 'unresolved-call'
  | 'outside-scope'
  | 'unresolved-import'
  | 'unreadable'
  | 'too-large'
  | 'unparseable'
  | 'symlink'
  | 'ungrouped';

export interface Incomplete {
  /** Module id (relative to root) where the unseen thing is. */
  readonly file: string;
  /** 1-based line; 0 when the whole file is meant. */
  readonly line: number;
  readonly reason: IncompleteReason;
  /** The specifier, callee text or error code, cut at MAX_DETAIL_CHARS. */
  readonly detail: string;
}

export interface StaticGraph {
  readonly level: StaticLevel;
  /** Every source file in scope, read or not, sorted. */
  readonly modules: readonly string[];
  /** The graph's nodes at `level`, sorted by id. */
  readonly nodes: readonly StaticNode[];
  /** Distinct edges, sorted by from, to, kind. */
  readonly edges: readonly StaticEdge[];
  /** The completeness bound: everything the read could not see, listed, sorted by file, line, reason, detail. */
  readonly incomplete: readonly Incomplete[];
}
