/**
 * The declared graph: what can happen, read from what the host declared and nothing that ran.
 *
 * From the catalog: one server node; a tool node per tool with an `invoke` edge from the server;
 * a resource node per resource and per resource template, and a prompt node per prompt, each
 * with a `read` edge from the server; a module node per module the host maps a tool to, with an
 * `invoke` edge tool to module. Every edge is `declared`, sign `unset`, without weight; nodes
 * carry no labels (the catalog has no command class or mode to copy).
 *
 * The original wrote resource and prompt nodes without edges ("a declared resource is not a
 * read"). Here the declared graph is "what a client can reach through this server", so the server
 * reaches its resources and prompts by `read`; the collector observes reads and prompt gets on
 * the same edges (`observed.ts`), so in a diff an unread one is dead authority and a read one is
 * declared and observed.
 *
 * The static call/import graph of the host's code is another package's job. `mergeStaticGraph`
 * is the seam: it takes that package's module graph and its completeness bound, checks both as
 * any graph is checked, and returns them merged with the catalog's graph.
 */

import { type CatalogNames, catalogNames, type Server } from 'palisade-mcp';
import { writeValue } from './canonical-json.js';
import { ConnectomeError } from './errors.js';
import {
  admitGraph,
  createGraph,
  type EdgeInput,
  type Graph,
  type GraphInput,
  type NodeInput,
} from './graph.js';
import { admitLabelObject, admitLabelValue, type LabelObject } from './label-value.js';
import { identifiedNode } from './node-id.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { compareCodePoints, requireWellFormed } from './text-order.js';

export interface DeclaredOptions {
  /**
   * Tool name to the module implementing it, written the way the host prints it (a path or a
   * package specifier). Every name must be a tool of the catalog.
   */
  readonly modules?: Readonly<Record<string, string>>;
}

export function declaredFromCatalog(server: Server, options?: DeclaredOptions): Graph {
  const { name, catalog } = readServer(server);
  const modules = readModules(options);
  const serverNode = identifiedNode(name, { kind: 'server' });
  const nodes: NodeInput[] = [serverNode];
  const edges: EdgeInput[] = [];
  const edge = (to: string, kind: EdgeInput['kind'], from = serverNode.id): void => {
    edges.push({ from, to, kind, provenance: 'declared' });
  };

  const tools = new Map<string, string>();
  for (const tool of catalog.tools) {
    const node = identifiedNode(name, { kind: 'tool', name: tool });
    tools.set(tool, node.id);
    nodes.push(node);
    edge(node.id, 'invoke');
  }
  for (const uri of catalog.resources) {
    const node = identifiedNode(name, { kind: 'resource', uri });
    nodes.push(node);
    edge(node.id, 'read');
  }
  for (const uriTemplate of catalog.resourceTemplates) {
    const node = identifiedNode(name, { kind: 'resource_template', uriTemplate });
    nodes.push(node);
    edge(node.id, 'read');
  }
  for (const prompt of catalog.prompts) {
    const node = identifiedNode(name, { kind: 'prompt', name: prompt });
    nodes.push(node);
    edge(node.id, 'read');
  }

  const moduleIds = new Set<string>();
  for (const [tool, module] of modules) {
    const from = tools.get(tool);
    if (from === undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_UNKNOWN_TOOL',
        `option "modules" maps ${JSON.stringify(tool)}, which is not a tool of server ${JSON.stringify(name)}`,
      );
    }
    const node = identifiedNode(name, { kind: 'module', module });
    // Two tools implemented by one module share its node.
    if (!moduleIds.has(node.id)) nodes.push(node);
    moduleIds.add(node.id);
    edge(node.id, 'invoke', from);
  }
  return createGraph({ nodes, edges });
}

/**
 * What a static read of code could not see, each field a list, never a count: a count says
 * "something is missing", a list says what. An entry is a name (a caller, a specifier, a file) or
 * a record in the label grammar (e.g. `{ file, line, reason, detail }` as the static analyser
 * writes its `incomplete` list). Field names are the analyser's.
 */
export type BoundEntry = string | LabelObject;
export interface CompletenessBound {
  readonly [field: string]: readonly BoundEntry[];
}

/** The static analyser's output, as handed to `mergeStaticGraph`. */
export interface StaticCodeGraph {
  /** Module (or function, or boundary) nodes and the `declared` edges between them. */
  readonly graph: Graph | GraphInput;
  readonly bound: CompletenessBound;
}

export interface DeclaredConnectome {
  readonly graph: Graph;
  /** Each list sorted by its entries' canonical text and frozen. Kept beside the graph, outside the hashed bytes. */
  readonly bound: CompletenessBound;
}

/**
 * The seam for the static call/import graph. Refusals, first one wins: the catalog graph or the
 * code graph as `createGraph` refuses it; an edge in either that is not `declared`
 * (`..._PROVENANCE`), carries a sign other than `unset` or a weight (`..._INVALID`: a static read
 * asserts possibility, not a verdict or a measurement); one id given two different nodes
 * (`..._MERGE_CONFLICT`); a bound that is not lists of names (`..._BOUND`); then the union as
 * `createGraph` refuses it (a code edge naming a node neither graph has is dangling).
 */
export function mergeStaticGraph(declared: Graph, code: StaticCodeGraph): DeclaredConnectome {
  if (!isPlainObject(code)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_INVALID',
      'the static code graph must be a plain object',
    );
  }
  refuseUnknownKeys(code, ['graph', 'bound'], 'static code graph');
  const catalogSide = admitDeclared(declared, 'catalog graph');
  const codeSide = admitDeclared(code.graph as Graph, 'static code graph');

  const nodes = new Map<string, NodeInput>();
  for (const node of [...catalogSide.nodes, ...codeSide.nodes]) {
    const earlier = nodes.get(node.id);
    if (earlier === undefined) {
      nodes.set(node.id, node);
    } else if (
      earlier.kind !== node.kind ||
      earlier.level !== node.level ||
      writeValue(earlier.labels ?? {}) !== writeValue(node.labels ?? {})
    ) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_MERGE_CONFLICT',
        `node ${JSON.stringify(node.id)} is a ${earlier.kind} at ${earlier.level} in one graph and a ${node.kind} at ${node.level} (or other labels) in the other`,
      );
    }
  }
  // Edges are keyed by (from, to, kind, provenance) and every one here is declared and unset, so
  // an edge both graphs hold is one edge.
  const edges = new Map<string, EdgeInput>();
  for (const edge of [...catalogSide.edges, ...codeSide.edges]) {
    edges.set(JSON.stringify([edge.from, edge.to, edge.kind]), edge);
  }
  const bound = admitBound(code.bound);
  return Object.freeze({
    graph: createGraph({ nodes: [...nodes.values()], edges: [...edges.values()] }),
    bound,
  });
}

function admitDeclared(value: Graph, what: string): Graph {
  const graph = admitGraph(value);
  for (const edge of graph.edges) {
    const where = `${what} edge ${JSON.stringify(edge.from)} -> ${JSON.stringify(edge.to)}`;
    if (edge.provenance !== 'declared') {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_PROVENANCE',
        `${where} is ${edge.provenance}, not declared`,
      );
    }
    if (edge.sign !== 'unset') {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_INVALID',
        `${where} carries sign ${edge.sign}; a declared graph is built with sign unset, a verdict is a consumer's to add`,
      );
    }
    if (edge.weight !== undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_INVALID',
        `${where} carries a weight; a declared edge is a possibility, not a measurement`,
      );
    }
  }
  return graph;
}

function admitBound(value: unknown): CompletenessBound {
  if (!isPlainObject(value)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_BOUND',
      'the completeness bound must be a plain object of lists',
    );
  }
  const fields: [string, readonly BoundEntry[]][] = [];
  for (const [field, list] of Object.entries(value)) {
    const where = `completeness bound field ${JSON.stringify(field)}`;
    requireWellFormed(field, where);
    if (!Array.isArray(list)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_BOUND',
        `${where} is ${typeof list === 'number' ? 'a count' : `a ${typeof list}`}; the bound lists what the read could not see, it never counts it`,
      );
    }
    // Entries are identified and ordered by their canonical text, so equal bounds are equal lists.
    const byText = new Map<string, BoundEntry>();
    for (const [index, item] of (list as unknown[]).entries()) {
      if (!(typeof item === 'string' && item.length > 0) && !isPlainObject(item)) {
        throw new ConnectomeError(
          'PALISADE_ERR_CONNECTOME_BOUND',
          `${where}[${index}] is ${JSON.stringify(item) ?? typeof item}; an entry is a non-empty name or a record`,
        );
      }
      const entry =
        typeof item === 'string'
          ? admitLabelValue(item, `${where}[${index}]`)
          : admitLabelObject(item, `${where}[${index}]`);
      const text = writeValue(entry);
      if (byText.has(text)) {
        throw new ConnectomeError('PALISADE_ERR_CONNECTOME_BOUND', `${where} lists ${text} twice`);
      }
      byText.set(text, entry as BoundEntry);
    }
    const sorted = [...byText].sort(([x], [y]) => compareCodePoints(x, y)).map(([, entry]) => entry);
    fields.push([field, Object.freeze(sorted)]);
  }
  return Object.freeze(Object.fromEntries(fields));
}

/** The server's name and what its catalog declares, read through the server package's public API. */
export function readServer(server: Server): { readonly name: string; readonly catalog: CatalogNames } {
  const name = isPlainObject(server) && isPlainObject(server.info) ? server.info['name'] : undefined;
  let catalog: CatalogNames | undefined;
  try {
    catalog = catalogNames(server);
  } catch {
    // Refused below under the connectome's own code, as any other value that is not a server.
  }
  if (typeof name !== 'string' || catalog === undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_INVALID',
      'declaredFromCatalog needs a server createServer returned',
    );
  }
  return { name, catalog };
}

function readModules(options: DeclaredOptions | undefined): [string, string][] {
  if (options === undefined) return [];
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['modules'], '');
  const modules = options['modules'];
  if (modules === undefined) return [];
  if (!isPlainObject(modules)) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      'option "modules" must map tool names to module names',
    );
  }
  const entries = Object.entries(modules);
  for (const [tool, module] of entries) {
    if (typeof module !== 'string' || module.length === 0) {
      throw new ConnectomeError(
        'PALISADE_ERR_INVALID_OPTION',
        `option "modules.${tool}" must be a non-empty module name`,
      );
    }
  }
  return entries as [string, string][];
}
