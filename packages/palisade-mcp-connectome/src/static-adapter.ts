/**
 * The static read, adapted: `palisade-mcp-static`'s `analyzeScope()` result (plain JSON) turned
 * into connectome nodes and a completeness bound, then merged with the catalog's graph.
 *
 * The shape is declared here rather than imported: this package must not depend on the
 * analyser, whose parser is heavy, so a host that never reads its code installs nothing more.
 * The result is wire-like input (it may have been written to disk and read back), so it is
 * checked as any input is and refused by name, never repaired.
 *
 * Mapping, with `server` the catalog's server name:
 * - `module` `src/a.ts` → `nodeId(server, { kind: 'module', module: 'src/a.ts' })`, level module;
 * - `function` `src/a.ts#main` → `{ kind: 'function', module: 'src/a.ts', name: 'main' }`, level
 *   function (split at the last `#`: a function name never holds one, a file name may);
 * - `boundary` `packages/x` → `{ kind: 'boundary', source: boundarySource, name: 'packages/x' }`;
 * - `package` `npm:ajv` → `{ kind: 'boundary', source: 'npm', name: 'ajv' }` and `builtin`
 *   `node:fs` → `{ kind: 'boundary', source: 'node', name: 'fs' }`, level boundary;
 * - every edge, `import` or `call`, → one `invoke` edge, `declared`, sign `unset`: loading a
 *   module runs its code, so both say "code here can run code there"; the vocabulary is the
 *   schema-3 format's and has no `import` kind.
 *
 * The bound keeps the analyser's reasons as its field names, each a list of `{ file, line,
 * detail }` records; beside them `tool-without-module` lists the catalog's tools the host did
 * not map to a module, and `tool-module-outside-scope` the `{ tool, module }` pairs whose module
 * the read did not cover: in both cases the declared graph stops at the tool.
 */

import type { Server } from 'palisade-mcp';
import {
  type CompletenessBound,
  type DeclaredConnectome,
  declaredFromCatalog,
  mergeStaticGraph,
  readServer,
  type StaticCodeGraph,
} from './declared.js';
import { ConnectomeError } from './errors.js';
import type { EdgeInput, NodeInput } from './graph.js';
import type { LabelObject } from './label-value.js';
import { identifiedNode, type NodeIdentity } from './node-id.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';

/** One node of the analyser's result. */
export interface StaticNodeShape {
  readonly id: string;
  readonly kind: 'module' | 'function' | 'boundary' | 'package' | 'builtin';
}

/** One edge of the analyser's result. */
export interface StaticEdgeShape {
  readonly from: string;
  readonly to: string;
  readonly kind: 'import' | 'call';
}

/** The plain JSON `analyzeScope()` returns (see `packages/palisade-static/README.md`). */
export interface StaticReadShape {
  readonly level: 'module' | 'function' | 'boundary';
  readonly modules: readonly string[];
  readonly nodes: readonly StaticNodeShape[];
  readonly edges: readonly StaticEdgeShape[];
  readonly incomplete: readonly {
    readonly file: string;
    readonly line: number;
    readonly reason: string;
    readonly detail: string;
  }[];
}

export interface StaticToDeclaredOptions {
  /**
   * Tool name to the module implementing it, written as the analyser writes module ids (the
   * path relative to its `root`, e.g. `src/tools/echo.ts`), so the tool's edge meets the code.
   */
  readonly modules?: Readonly<Record<string, string>>;
  /**
   * What grouped the modules of a `boundary` node: `package` (default, the analyser's nearest
   * `package.json`) or the name the host gives its own `boundaries` map.
   */
  readonly boundarySource?: string;
}

const READ_KEYS = ['level', 'modules', 'nodes', 'edges', 'incomplete'];
const STATIC_LEVELS = ['module', 'function', 'boundary'];
const INCOMPLETE_KEYS = ['file', 'line', 'reason', 'detail'];

/**
 * The catalog's declared graph merged with the static read of the host's code. Refusals: a read
 * that is not the analyser's shape (`PALISADE_ERR_CONNECTOME_INVALID`, naming the field); then
 * whatever `declaredFromCatalog` and `mergeStaticGraph` refuse (an unknown tool, a merge
 * conflict, a dangling edge).
 */
export function staticToDeclared(
  server: Server,
  read: StaticReadShape,
  options: StaticToDeclaredOptions = {},
): DeclaredConnectome {
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['modules', 'boundarySource'], '');
  const boundarySource = options['boundarySource'] ?? 'package';
  if (typeof boundarySource !== 'string' || boundarySource.length === 0) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      'option "boundarySource" must be a non-empty string',
    );
  }
  // Checked by `declaredFromCatalog`, which refuses a name that is not a tool.
  const modules = (options as StaticToDeclaredOptions).modules ?? {};
  const catalog = declaredFromCatalog(server, options['modules'] === undefined ? undefined : { modules });
  const { name, catalog: names } = readServer(server);
  const tools = names.tools.map((toolName): [string, string | undefined] => [
    toolName,
    Object.hasOwn(modules, toolName) ? modules[toolName] : undefined,
  ]);
  return mergeStaticGraph(catalog, staticCodeGraph(name, read, boundarySource, tools));
}

/**
 * The static read as connectome nodes and `invoke` edges under the server `name`, with its
 * completeness bound: the read's own `incomplete` list by reason, then which of `tools` (each a
 * tool's name and the module the host maps it to, if any) the code graph cannot continue. The
 * shared step of `staticToDeclared` and the CLI's `declared --static`; refusals as above.
 */
export function staticCodeGraph(
  name: string,
  read: unknown,
  boundarySource: string,
  tools: readonly (readonly [string, string | undefined])[],
): StaticCodeGraph {
  const checked = admitRead(read);
  const nodes = new Map<string, NodeInput>();
  const idOf = new Map<string, string>();
  for (const [index, node] of checked.nodes.entries()) {
    const made = identifiedNode(name, identityOf(node, boundarySource, `static read nodes[${index}]`));
    if (idOf.has(node.id)) throw invalid(`static read node ${JSON.stringify(node.id)} is listed twice`);
    idOf.set(node.id, made.id);
    nodes.set(made.id, made);
  }
  const edges = new Map<string, EdgeInput>();
  for (const [index, edge] of checked.edges.entries()) {
    const from = idOf.get(edge.from);
    const to = idOf.get(edge.to);
    if (from === undefined || to === undefined) {
      const end = from === undefined ? edge.from : edge.to;
      throw invalid(
        `static read edges[${index}] names ${JSON.stringify(end)}, which is not a node of the read`,
      );
    }
    // An import and a call between one pair are one invoke edge.
    edges.set(JSON.stringify([from, to]), { from, to, kind: 'invoke', provenance: 'declared' });
  }
  return {
    graph: { nodes: [...nodes.values()], edges: [...edges.values()] },
    bound: boundOf(checked, tools),
  };
}

function identityOf(node: StaticNodeShape, boundarySource: string, where: string): NodeIdentity {
  switch (node.kind) {
    case 'module':
      return { kind: 'module', module: node.id };
    case 'function': {
      const hash = node.id.lastIndexOf('#');
      if (hash <= 0 || hash === node.id.length - 1)
        throw invalid(`${where} is a function whose id ${JSON.stringify(node.id)} is not <module>#<name>`);
      return { kind: 'function', module: node.id.slice(0, hash), name: node.id.slice(hash + 1) };
    }
    case 'boundary':
      return { kind: 'boundary', source: boundarySource, name: node.id };
    case 'package':
      return { kind: 'boundary', source: 'npm', name: prefixed(node.id, 'npm:', where) };
    case 'builtin':
      return { kind: 'boundary', source: 'node', name: prefixed(node.id, 'node:', where) };
    default:
      throw invalid(`${where}.kind is ${JSON.stringify((node as { kind: unknown }).kind)}`);
  }
}

function prefixed(id: string, prefix: string, where: string): string {
  if (!id.startsWith(prefix) || id.length === prefix.length)
    throw invalid(`${where} id ${JSON.stringify(id)} does not start with ${JSON.stringify(prefix)}`);
  return id.slice(prefix.length);
}

function boundOf(
  read: StaticReadShape,
  tools: readonly (readonly [string, string | undefined])[],
): CompletenessBound {
  // A Map, not an object literal: a reason is data and may be spelled `__proto__`.
  const bound = new Map<string, LabelObject[] | string[]>();
  for (const { file, line, reason, detail } of read.incomplete) {
    const list = (bound.get(reason) ?? []) as LabelObject[];
    list.push({ file, line, detail });
    bound.set(reason, list);
  }
  const inScope = new Set(read.modules);
  const unmapped: string[] = [];
  const outside: LabelObject[] = [];
  for (const [tool, module] of tools) {
    if (module === undefined) unmapped.push(tool);
    else if (!inScope.has(module)) outside.push({ tool, module });
  }
  if (unmapped.length > 0) bound.set('tool-without-module', unmapped);
  if (outside.length > 0) bound.set('tool-module-outside-scope', outside);
  return Object.fromEntries(bound);
}

function admitRead(value: unknown): StaticReadShape {
  if (!isPlainObject(value)) throw invalid('the static read must be the plain object analyzeScope returns');
  const unknown = Object.keys(value).filter((key) => !READ_KEYS.includes(key));
  if (unknown.length > 0) throw invalid(`the static read has unknown field ${JSON.stringify(unknown[0])}`);
  if (!STATIC_LEVELS.includes(value['level'] as string))
    throw invalid(
      `static read level is ${JSON.stringify(value['level'])}; expected module, function or boundary`,
    );
  const modules = list(value['modules'], 'modules');
  for (const [index, module] of modules.entries()) {
    if (typeof module !== 'string' || module.length === 0)
      throw invalid(`static read modules[${index}] must be a non-empty string`);
  }
  const nodes = list(value['nodes'], 'nodes');
  for (const [index, node] of nodes.entries()) record(node, ['id', 'kind'], `nodes[${index}]`);
  const edges = list(value['edges'], 'edges');
  for (const [index, edge] of edges.entries()) {
    record(edge, ['from', 'to', 'kind'], `edges[${index}]`);
    const kind = (edge as Record<string, unknown>)['kind'];
    if (kind !== 'import' && kind !== 'call')
      throw invalid(`static read edges[${index}].kind is ${JSON.stringify(kind)}; expected import or call`);
  }
  const incomplete = list(value['incomplete'], 'incomplete');
  for (const [index, entry] of incomplete.entries()) {
    const where = `incomplete[${index}]`;
    if (!isPlainObject(entry)) throw invalid(`static read ${where} must be a plain object`);
    refuseUnknown(entry, INCOMPLETE_KEYS, where);
    for (const key of ['file', 'reason', 'detail']) {
      if (typeof entry[key] !== 'string') throw invalid(`static read ${where}.${key} must be a string`);
    }
    if ((entry['reason'] as string).length === 0) throw invalid(`static read ${where}.reason is empty`);
    const line = entry['line'];
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 0)
      throw invalid(`static read ${where}.line must be a non-negative integer`);
  }
  return value as unknown as StaticReadShape;
}

function list(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) throw invalid(`static read ${field} must be an array`);
  return value;
}

function record(value: unknown, keys: readonly string[], where: string): void {
  if (!isPlainObject(value)) throw invalid(`static read ${where} must be a plain object`);
  refuseUnknown(value, keys, where);
  for (const key of keys) {
    if (typeof value[key] !== 'string' || (value[key] as string).length === 0)
      throw invalid(`static read ${where}.${key} must be a non-empty string`);
  }
}

function refuseUnknown(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined)
    throw invalid(`static read ${where} has unknown field ${JSON.stringify(unknown)}`);
}

function invalid(message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_INVALID', message);
}
