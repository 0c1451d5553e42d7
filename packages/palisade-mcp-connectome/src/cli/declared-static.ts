/**
 * `palisade connectome declared FILE --static ROOT`: the catalog's declared graph a host exported
 * (FILE), merged with the static call/import graph of the host's code under ROOT, read by
 * `palisade-mcp-static`'s `analyzeScope()`. The analyser's parser is heavy, so this package does
 * not depend on it: it is loaded here, on demand, by a fixed specifier (never one taken from
 * input), and its absence is refused by name with the command that installs it. The host's code
 * is parsed, never loaded or run.
 *
 * The server's name and the tool-to-module map come from FILE itself: its one server node, and
 * each tool's `invoke` edge to a module node (the host's `modules` option wrote those, with the
 * module ids the analyser writes when both name modules by their path relative to ROOT).
 */
import { type CompletenessBound, type DeclaredConnectome, mergeStaticGraph } from '../declared.js';
import { ConnectomeError } from '../errors.js';
import type { Graph } from '../graph.js';
import { nodeId } from '../node-id.js';
import { staticCodeGraph } from '../static-adapter.js';
import { isMissingPackage } from './optional-package.js';

/** The package `declared --static` loads; fixed here, never derived from input. */
export const STATIC_PACKAGE = 'palisade-mcp-static';

export const STATIC_LEVELS = ['module', 'function', 'boundary'] as const;

export interface StaticRequest {
  readonly root: string;
  readonly include: readonly string[] | undefined;
  readonly level: (typeof STATIC_LEVELS)[number];
}

type AnalyzeScope = (options: Record<string, unknown>) => unknown;

async function loadAnalyzer(): Promise<AnalyzeScope> {
  let loaded: unknown;
  try {
    // The literal specifier is the point (the no-eval census holds `import()` to literals). The
    // package is optional, so its types may be absent when this compiles: nothing here relies
    // on them, the result is checked below and the read checked by `staticCodeGraph`.
    // Not `@ts-expect-error`: in this workspace the package resolves, in a clean build it may not.
    // biome-ignore lint/suspicious/noTsIgnore: the error is expected in some builds and not others
    // @ts-ignore: resolved at run time only, when the host installed it
    loaded = await import('palisade-mcp-static');
  } catch (error) {
    if (isMissingPackage(error, STATIC_PACKAGE)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CLI_STATIC_MISSING',
        `--static needs the package ${STATIC_PACKAGE}, which is not installed; install it beside palisade-mcp (npm install --save-dev ${STATIC_PACKAGE}) or, without installing, run npx -p palisade-mcp -p palisade-mcp-connectome -p ${STATIC_PACKAGE} palisade connectome declared ...`,
      );
    }
    throw error;
  }
  const analyzeScope = (loaded as { analyzeScope?: unknown } | null)?.analyzeScope;
  if (typeof analyzeScope !== 'function') {
    throw new ConnectomeError(
      'PALISADE_ERR_CLI_STATIC_MISSING',
      `the installed ${STATIC_PACKAGE} exports no analyzeScope function; install a version that does`,
    );
  }
  return analyzeScope as AnalyzeScope;
}

/** An analyser refusal (a `StaticAnalysisError`), reported as its own code. */
export class StaticRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** FILE's graph with the static read of ROOT merged in, and the read's completeness bound. */
export async function declaredWithStatic(graph: Graph, request: StaticRequest): Promise<DeclaredConnectome> {
  const analyzeScope = await loadAnalyzer();
  const server = serverOf(graph);
  let read: unknown;
  try {
    read = analyzeScope({
      root: request.root,
      level: request.level,
      ...(request.include === undefined ? {} : { include: request.include }),
    });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('PALISADE_STATIC_ERR_')) {
      throw new StaticRefusal(code, (error as Error).message);
    }
    throw error;
  }
  return mergeStaticGraph(graph, staticCodeGraph(server, read, 'package', toolModules(graph, server)));
}

/** The name behind the graph's one server node: the name whose `nodeId` is that node's id. */
function serverOf(graph: Graph): string {
  const servers = graph.nodes.filter((node) => node.kind === 'server');
  if (servers.length !== 1) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_INVALID',
      `--static needs a declared graph with exactly one server node, and this one has ${servers.length}`,
    );
  }
  const id = servers[0]!.id;
  const name = unescapeComponent(id.slice(0, id.lastIndexOf('/')));
  if (!id.endsWith('/server') || nodeId(name, { kind: 'server' }) !== id) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_INVALID',
      `the server node ${JSON.stringify(id)} is not an id nodeId writes, so the code's ids could not meet it`,
    );
  }
  return name;
}

/**
 * Each tool of the graph with the module its `invoke` edge reaches, if any. A name is taken from
 * an id only when `nodeId` writes that very id back from it.
 */
function toolModules(graph: Graph, server: string): [string, string | undefined][] {
  const prefix = `${nodeId(server, { kind: 'server' }).slice(0, -'server'.length)}`;
  const named = (id: string, tag: string): string | undefined => {
    const rest = id.startsWith(`${prefix}${tag}/`) ? id.slice(prefix.length + tag.length + 1) : '';
    return rest.length === 0 || rest.includes('/') ? undefined : unescapeComponent(rest);
  };
  const kindOf = new Map(graph.nodes.map((node) => [node.id, node]));
  const tools: [string, string | undefined][] = [];
  for (const node of graph.nodes) {
    if (node.kind !== 'tool') continue;
    const tool = named(node.id, 'tool');
    if (tool === undefined || nodeId(server, { kind: 'tool', name: tool }) !== node.id) continue;
    let module: string | undefined;
    for (const edge of graph.edges) {
      const target = kindOf.get(edge.to);
      if (edge.from !== node.id || edge.kind !== 'invoke' || target?.level !== 'module') continue;
      const name = named(edge.to, 'module');
      if (name !== undefined && nodeId(server, { kind: 'module', module: name }) === edge.to) module = name;
    }
    tools.push([tool, module]);
  }
  return tools;
}

function unescapeComponent(text: string): string {
  return text.replaceAll('%2F', '/').replaceAll('%25', '%');
}

/** The bound's reasons, for the note on stderr when `--bound` was not given. */
export function boundReasons(bound: CompletenessBound): string[] {
  return Object.keys(bound);
}
