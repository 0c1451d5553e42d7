/**
 * The static half of the declared graph: reads the host's source under a named scope and
 * returns its import graph (module level), its call graph between top-level functions
 * (function level) or the graph between groups of modules (boundary level), with a
 * completeness bound that lists everything the read could not see. Nothing is executed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { StaticAnalysisError } from './errors.js';
import { type AnalyzeScopeOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { type Callee, cut, type ModuleFacts, readModule } from './read-module.js';
import { type Resolution, resolveSpecifier } from './resolve.js';
import { scanScope } from './scan.js';
import type {
  Incomplete,
  IncompleteReason,
  StaticEdge,
  StaticEdgeKind,
  StaticGraph,
  StaticNode,
} from './shape.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'ERROR';
}

class Collector {
  readonly nodes = new Map<string, StaticNode>();
  readonly edges = new Map<string, StaticEdge>();
  readonly incomplete = new Map<string, Incomplete>();

  node(node: StaticNode): void {
    if (!this.nodes.has(node.id)) this.nodes.set(node.id, node);
  }

  edge(from: string, to: string, kind: StaticEdgeKind): void {
    this.edges.set(JSON.stringify([from, to, kind]), { from, to, kind });
  }

  list(file: string, line: number, reason: IncompleteReason, detail: string): void {
    const entry = { file, line, reason, detail: cut(detail) };
    this.incomplete.set(JSON.stringify([file, line, reason, entry.detail]), entry);
  }
}

/** Reads one file under the size bound; a failure is listed and gives no facts. */
function readFacts(root: string, id: string, options: ResolvedOptions, out: Collector): ModuleFacts | null {
  const file = path.join(root, id);
  let bytes: Buffer;
  try {
    // Check the size before reading: a huge file must not be loaded to learn that it is huge.
    const size = statSync(file).size;
    if (size > options.maxFileBytes) {
      out.list(id, 0, 'too-large', `${size} bytes > maxFileBytes ${options.maxFileBytes}`);
      return null;
    }
    bytes = readFileSync(file);
  } catch (error) {
    out.list(id, 0, 'unreadable', errorCode(error));
    return null;
  }
  if (bytes.length > options.maxFileBytes) {
    out.list(id, 0, 'too-large', `${bytes.length} bytes > maxFileBytes ${options.maxFileBytes}`);
    return null;
  }
  let source: string;
  try {
    source = UTF8.decode(bytes);
  } catch {
    out.list(id, 0, 'unreadable', 'not UTF-8');
    return null;
  }
  const read = readModule(id, source);
  if (!read.ok) {
    out.list(id, read.line, 'unparseable', read.message);
    return null;
  }
  return read.facts;
}

/** The group a module belongs to at the boundary level, or null when the host's map names none. */
function grouper(root: string, options: ResolvedOptions): (id: string) => string | null {
  const declared = options.boundaries;
  if (declared !== undefined) {
    const byLength = [...declared].sort((a, b) => b.prefix.length - a.prefix.length);
    return (id) =>
      byLength.find((b) => b.prefix === '.' || id === b.prefix || id.startsWith(`${b.prefix}/`))?.name ??
      null;
  }
  const cache = new Map<string, string>();
  const nearest = (dir: string): string => {
    const hit = cache.get(dir);
    if (hit !== undefined) return hit;
    const found =
      dir === '.' || existsSync(path.join(root, dir, 'package.json'))
        ? dir
        : nearest(path.posix.dirname(dir));
    cache.set(dir, found);
    return found;
  };
  return (id) => nearest(path.posix.dirname(id));
}

export function analyzeScope(options: AnalyzeScopeOptions): StaticGraph {
  const resolved = resolveOptions(options);
  const root = path.resolve(resolved.root);
  let rootIsDir = false;
  try {
    rootIsDir = statSync(root).isDirectory();
  } catch {
    rootIsDir = false;
  }
  if (!rootIsDir)
    throw new StaticAnalysisError(
      'PALISADE_STATIC_ERR_ROOT',
      `option "root": "${resolved.root}" is not a readable directory`,
    );

  const scan = scanScope(root, resolved.include, resolved.maxFiles);
  const scope = new Set(scan.files);
  const out = new Collector();
  for (const entry of scan.listed) out.list(entry.file, entry.line, entry.reason, entry.detail);

  const facts = new Map<string, ModuleFacts>();
  for (const id of scan.files) {
    const read = readFacts(root, id, resolved, out);
    if (read !== null) facts.set(id, read);
  }

  const resolutions = new Map<string, Resolution>();
  const resolve = (from: string, specifier: string): Resolution => {
    const key = JSON.stringify([from, specifier]);
    let r = resolutions.get(key);
    if (r === undefined) {
      r = resolveSpecifier(root, from, specifier, scope);
      resolutions.set(key, r);
    }
    return r;
  };

  const level = resolved.level;
  const group = level === 'boundary' ? grouper(root, resolved) : null;
  const nodeOf = (id: string): string | null => (group === null ? id : group(id));

  for (const id of scan.files) {
    const own = nodeOf(id);
    if (own === null) {
      out.list(id, 0, 'ungrouped', id);
      continue;
    }
    out.node({ id: own, kind: level === 'boundary' ? 'boundary' : 'module' });
    const f = facts.get(id);
    if (f === undefined) continue;
    for (const u of f.unseen) out.list(id, u.line, u.reason, u.detail);
    for (const imp of f.imports) {
      const r = resolve(id, imp.specifier);
      if (r.kind === 'module') {
        const target = nodeOf(r.id);
        // A self-edge says nothing a node does not; at the boundary level most edges would be one.
        if (target !== null && target !== own) out.edge(own, target, 'import');
      } else if ((r.kind === 'package' || r.kind === 'builtin') && level === 'boundary') {
        out.node({ id: r.id, kind: r.kind });
        out.edge(own, r.id, 'import');
      } else {
        out.list(
          id,
          imp.line,
          r.kind === 'unresolved' ? 'unresolved-import' : 'outside-scope',
          imp.specifier,
        );
      }
    }
  }

  if (level === 'function') functionCalls(facts, resolve, out);

  const incomplete = [...out.incomplete.values()].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      compare(a.reason, b.reason) ||
      compare(a.detail, b.detail),
  );
  return {
    level,
    modules: scan.files,
    nodes: [...out.nodes.values()].sort((a, b) => compare(a.id, b.id)),
    edges: [...out.edges.values()].sort(
      (a, b) => compare(a.from, b.from) || compare(a.to, b.to) || compare(a.kind, b.kind),
    ),
    incomplete,
  };
}

type Target =
  | { readonly kind: 'function'; readonly id: string }
  | { readonly kind: 'listed'; readonly reason: IncompleteReason; readonly detail: string };

function functionCalls(
  facts: ReadonlyMap<string, ModuleFacts>,
  resolve: (from: string, specifier: string) => Resolution,
  out: Collector,
): void {
  /** Follows an export name to the top-level function that defines it, through re-exports. */
  const exported = (module: string, exportName: string, seen: Set<string>): string | null => {
    const key = `${module}#${exportName}`;
    if (seen.has(key)) return null;
    seen.add(key);
    const f = facts.get(module);
    if (f === undefined) return null;
    const e = f.exports.get(exportName);
    if (e !== undefined) {
      if ('local' in e) {
        if (f.functions.has(e.local)) return `${module}#${e.local}`;
        const b = f.bindings.get(e.local);
        if (b === undefined || b.imported === '*') return null;
        const r = resolve(module, b.specifier);
        return r.kind === 'module' ? exported(r.id, b.imported, seen) : null;
      }
      const r = resolve(module, e.specifier);
      return r.kind === 'module' && e.imported !== '*' ? exported(r.id, e.imported, seen) : null;
    }
    if (exportName === 'default') return null;
    for (const specifier of f.starExports) {
      const r = resolve(module, specifier);
      const hit = r.kind === 'module' ? exported(r.id, exportName, seen) : null;
      if (hit !== null) return hit;
    }
    return null;
  };

  const through = (module: string, specifier: string, imported: string, shown: string): Target => {
    const r = resolve(module, specifier);
    if (r.kind === 'module') {
      const id = imported === '*' ? null : exported(r.id, imported, new Set());
      return id !== null
        ? { kind: 'function', id }
        : { kind: 'listed', reason: 'unresolved-call', detail: `${shown} from ${specifier}` };
    }
    return {
      kind: 'listed',
      reason: r.kind === 'unresolved' ? 'unresolved-call' : 'outside-scope',
      detail: `${shown} from ${specifier}`,
    };
  };

  const target = (module: string, f: ModuleFacts, callee: Callee): Target => {
    switch (callee.kind) {
      case 'identifier': {
        if (f.functions.has(callee.name)) return { kind: 'function', id: `${module}#${callee.name}` };
        const b = f.bindings.get(callee.name);
        if (b === undefined) return { kind: 'listed', reason: 'unresolved-call', detail: callee.name };
        return through(module, b.specifier, b.imported, callee.name);
      }
      case 'member': {
        const b = f.bindings.get(callee.object);
        const shown = `${callee.object}.${callee.property}`;
        if (b === undefined || b.imported !== '*')
          return { kind: 'listed', reason: 'computed-call', detail: shown };
        return through(module, b.specifier, callee.property, shown);
      }
      case 'local':
        return { kind: 'listed', reason: 'unresolved-call', detail: callee.name };
      case 'computed':
        return { kind: 'listed', reason: 'computed-call', detail: callee.text };
    }
  };

  for (const [module, f] of facts) {
    for (const name of f.functions) {
      out.node({ id: `${module}#${name}`, kind: 'function' });
    }
  }
  for (const [module, f] of facts) {
    for (const call of f.calls) {
      const t = target(module, f, call.callee);
      if (t.kind === 'function')
        out.edge(call.caller === null ? module : `${module}#${call.caller}`, t.id, 'call');
      else out.list(module, call.line, t.reason, t.detail);
    }
  }
}
