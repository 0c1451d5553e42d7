/**
 * `palisade connectome ...`: the connectome for people, over files a host exported (the
 * `connectome://` resources or the API's canonical bytes). The command never loads or runs host
 * code; every input is read under a bound and checked as the library checks it, and a refusal is
 * one line on stderr naming its code, with exit code 1.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { digestHex, encodeGraph, encodeValue } from '../canonical.js';
import { diffGraphs, encodeDiff } from '../diff.js';
import { ConnectomeError } from '../errors.js';
import { createGraph, type Graph } from '../graph.js';
import { reachableWithout } from '../reach.js';
import { renderDot } from '../render-dot.js';
import { renderGraphml } from '../render-graphml.js';
import { renderHtml } from '../render-html.js';
import { renderModel } from '../render-model.js';
import { isCurrentSchema } from '../schema-version.js';
import {
  EDGE_KINDS,
  type EdgeKind,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  isMember,
  type Provenance,
  SCHEMA_VERSION,
} from '../vocabulary.js';
import { declaredWithStatic, STATIC_LEVELS, StaticRefusal } from './declared-static.js';
import { MAX_INPUT_BYTES, readJsonObject, shownPath } from './read-input.js';

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

const EXIT_CODES = `Exit codes: 0 success, 1 an input refused (one line on stderr naming its code), 2 usage error.`;

const INPUTS = `Input files are JSON a host exported: a graph's canonical bytes (schema ${SCHEMA_VERSION}, as the
connectome://declared and connectome://observed resources answer) or a bare {"nodes","edges"}
object; a sidecar ({"schema_version","weights"}); a diff record. Each file is read up to
${MAX_INPUT_BYTES} bytes (64 MiB) and checked as the library checks it; nothing is corrected.`;

export const CONNECTOME_USAGE = `usage: palisade connectome <command> [options]

Export, compare, query and draw a server's connectome from files its host exported. No host
code is loaded or run. Data goes to stdout, diagnostics to stderr.

Commands:
  declared FILE [--static ROOT]
                      check a declared graph and print its canonical bytes; with --static, merge
                      in the import/call graph of the code under ROOT (needs palisade-mcp-static)
  observed FILE       check an observed graph and print its canonical bytes
  diff DECLARED OBSERVED --window-start T --window-end T
                      print the canonical diff record of the two graphs
  reach FILE --from ID --to ID [--avoid ID]...
                      can FROM reach TO (without crossing any --avoid node), and by which path
  render FILE [--observed FILE] [--sidecar FILE] [--diff FILE] [--format html|dot|graphml|json]
                      draw the graphs: a self-contained HTML page, DOT, GraphML or the page's data

Run 'palisade connectome <command> --help' for a command's options.
Without installing: npx -p palisade-mcp -p palisade-mcp-connectome palisade connectome ...
(a bare 'npx palisade' would fetch whatever package is named "palisade", not this one.)

${INPUTS}

${EXIT_CODES}
`;

interface Command {
  readonly usage: string;
  readonly options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  readonly positionals: number;
  run(
    values: Record<string, unknown>,
    positionals: readonly string[],
  ): Uint8Array | string | Promise<Uint8Array | string>;
}

const ALGORITHM_OPTION = { algorithm: { type: 'string' }, hash: { type: 'boolean' } } as const;

const ALGORITHM_HELP = `  --algorithm A     the digest the bytes name: ${HASH_ALGORITHMS.join(', ')} (default sha256)
  --hash            print the digest of the bytes (hex, one line) instead of the bytes`;

function exportCommand(side: Provenance): Command {
  return {
    usage: `usage: palisade connectome ${side} FILE [--algorithm A] [--hash]

Checks FILE as a ${side} graph (every edge ${side}) and prints its canonical bytes, schema ${SCHEMA_VERSION},
exactly (no trailing newline), so the output hashes as the host's export does.

${ALGORITHM_HELP}
${side === 'declared' ? STATIC_HELP : ''}
${INPUTS}

${EXIT_CODES}
`,
    options: side === 'declared' ? { ...ALGORITHM_OPTION, ...STATIC_OPTIONS } : ALGORITHM_OPTION,
    positionals: 1,
    run(values, [file]) {
      const algorithm = algorithmOf(values);
      const graph = onSide(readGraph(file!), side, file!);
      if (values['static'] === undefined) {
        for (const option of Object.keys(STATIC_OPTIONS)) {
          if (values[option] !== undefined) throw new UsageError(`--${option} applies with --static only`);
        }
        return withHash(encodeGraph(graph, { algorithm }), algorithm, values);
      }
      return withStatic(graph, values).then((merged) =>
        withHash(encodeGraph(merged, { algorithm }), algorithm, values),
      );
    },
  };
}

const STATIC_OPTIONS = {
  static: { type: 'string' },
  include: { type: 'string', multiple: true },
  level: { type: 'string' },
  bound: { type: 'string' },
} as const;

const STATIC_HELP = `
  --static ROOT     merge in the static call/import graph of the host's code under ROOT, read by
                    palisade-mcp-static (install it beside palisade-mcp; without it the command is
                    refused, PALISADE_ERR_CLI_STATIC_MISSING). The code is parsed, never run. The
                    server and each tool's module come from FILE (the host's modules option), so
                    module ids must be paths relative to ROOT, e.g. src/tools/echo.ts.
  --include PATH    a file or directory under ROOT in the scope; repeat; default all of ROOT
  --level L         ${STATIC_LEVELS.join(', ')} (default module): nodes per file, per top-level
                    function (call edges too), or per package (nearest package.json)
  --bound OUT       write the completeness bound (what the read could not see: dynamic import(),
                    callees outside the scope, unreadable files, tools without a module) to OUT as
                    canonical JSON; without it, stderr names the bound's reasons when any
`;

/** The declared graph FILE with ROOT's static read merged in; the bound to --bound or a note. */
async function withStatic(graph: Graph, values: Record<string, unknown>): Promise<Graph> {
  const level = values['level'] ?? 'module';
  if (!isMember(STATIC_LEVELS, level)) {
    throw new UsageError(`--level ${JSON.stringify(level)} is not one of ${STATIC_LEVELS.join(', ')}`);
  }
  const merged = await declaredWithStatic(graph, {
    root: values['static'] as string,
    include: values['include'] as string[] | undefined,
    level,
  });
  const boundFile = values['bound'] as string | undefined;
  if (boundFile !== undefined) {
    writeFileSync(boundFile, encodeValue(merged.bound));
  } else if (Object.keys(merged.bound).length > 0) {
    process.stderr.write(
      `palisade connectome declared: the static read could not see everything (${Object.keys(merged.bound).join(', ')}); --bound OUT writes the list\n`,
    );
  }
  return merged.graph;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  declared: exportCommand('declared'),
  observed: exportCommand('observed'),
  diff: {
    usage: `usage: palisade connectome diff DECLARED OBSERVED --window-start T --window-end T [--algorithm A] [--hash]

Prints the canonical diff record of the declared graph against the observed one: every edge in
exactly one of four classes (declared_and_observed, declared_never_observed, observed_but_undeclared,
changed_sign), ten coverage counts, and the window, carried verbatim as
{"ended_at": T, "started_at": T}. The window is required: it is never inferred.

  --window-start T  when the observation began (e.g. 2026-09-14T00:00:00Z)
  --window-end T    when it ended
${ALGORITHM_HELP}

${EXIT_CODES}
`,
    options: { 'window-start': { type: 'string' }, 'window-end': { type: 'string' }, ...ALGORITHM_OPTION },
    positionals: 2,
    run(values, [declaredFile, observedFile]) {
      const started = values['window-start'];
      const ended = values['window-end'];
      if (typeof started !== 'string' || typeof ended !== 'string') {
        throw new UsageError('diff needs --window-start and --window-end; the window is never inferred');
      }
      const algorithm = algorithmOf(values);
      const diff = diffGraphs(readGraph(declaredFile!), readGraph(observedFile!), {
        window: { started_at: started, ended_at: ended },
      });
      return withHash(encodeDiff(diff, { algorithm }), algorithm, values);
    },
  },
  reach: {
    usage: `usage: palisade connectome reach FILE --from ID --to ID [--avoid ID]... [--kind K]...

Answers whether node FROM reaches node TO in the graph, crossing none of the --avoid nodes (gates),
and prints one line of canonical JSON: {"avoid","from","reachable","to","witness"}, the witness
being the shortest path made of the graph's own edges (null when unreachable). A node always
reaches itself; a path never starts or ends at an avoided node. Exit code 0 either way.

  --from ID         the entry node's id
  --to ID           the effect node's id
  --avoid ID        a gate the path may not cross; repeat for several
  --kind K          an edge kind the path may use (${EDGE_KINDS.join(', ')}); repeat; default all

${EXIT_CODES}
`,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      avoid: { type: 'string', multiple: true },
      kind: { type: 'string', multiple: true },
    },
    positionals: 1,
    run(values, [file]) {
      const from = values['from'];
      const to = values['to'];
      if (typeof from !== 'string' || typeof to !== 'string') {
        throw new UsageError('reach needs --from and --to');
      }
      const avoid = (values['avoid'] as string[] | undefined) ?? [];
      const kinds = (values['kind'] as string[] | undefined) ?? [...EDGE_KINDS];
      for (const kind of kinds) {
        if (!isMember(EDGE_KINDS, kind)) {
          throw new UsageError(`--kind ${JSON.stringify(kind)} is not one of ${EDGE_KINDS.join(', ')}`);
        }
      }
      const witness = reachableWithout(readGraph(file!), from, to, avoid, { kinds: kinds as EdgeKind[] });
      const answer = {
        avoid,
        from,
        reachable: witness !== null,
        to,
        witness:
          witness === null
            ? null
            : {
                nodes: witness.nodes,
                edges: witness.edges.map(({ from, to, kind, provenance, sign }) => ({
                  from,
                  to,
                  kind,
                  provenance,
                  sign,
                })),
              },
      };
      return `${Buffer.from(encodeValue(answer)).toString('utf8')}\n`;
    },
  },
  render: {
    usage: `usage: palisade connectome render FILE [--observed FILE] [--sidecar FILE] [--diff FILE] [--format F]

Draws the declared graph FILE, the observed graph with the sidecar's weights, and the diff record's
edges coloured by class (declared_and_observed, declared_never_observed, observed_but_undeclared,
changed_sign).

  --observed FILE   the observed graph
  --sidecar FILE    weights for edges of either graph (every weight must name an edge given)
  --diff FILE       a diff record, as 'palisade connectome diff' prints it
  --format F        html (default): one self-contained page, no network, with a search box and a
                    reach query that highlights the witness path;
                    dot: Graphviz; graphml: GraphML; json: the data the page embeds

Names are escaped for each format; a name DOT or XML 1.0 cannot carry (a C0 control other than
tab, LF or CR; U+FFFE, U+FFFF) is refused by name, never dropped.
Example: palisade connectome render declared.json --observed observed.json --format html > connectome.html

${EXIT_CODES}
`,
    options: {
      observed: { type: 'string' },
      sidecar: { type: 'string' },
      diff: { type: 'string' },
      format: { type: 'string' },
    },
    positionals: 1,
    run(values, [file]) {
      const format = (values['format'] as string | undefined) ?? 'html';
      if (!['html', 'dot', 'graphml', 'json'].includes(format)) {
        throw new UsageError(`--format ${JSON.stringify(format)} is not one of html, dot, graphml, json`);
      }
      const observedFile = values['observed'] as string | undefined;
      const sidecarFile = values['sidecar'] as string | undefined;
      const diffFile = values['diff'] as string | undefined;
      const graphs = {
        graph: readGraph(file!),
        ...(observedFile === undefined ? {} : { observed: readGraph(observedFile) }),
      };
      // Each file's content is checked on its own first, so a refusal names the file at fault.
      const sidecar =
        sidecarFile === undefined
          ? undefined
          : inFile(sidecarFile, () =>
              checked(readJsonObject(sidecarFile), (v) => renderModel({ ...graphs, sidecar: v })),
            );
      const diff =
        diffFile === undefined
          ? undefined
          : inFile(diffFile, () =>
              checked(readJsonObject(diffFile), (v) => renderModel({ graph: EMPTY, diff: v })),
            );
      const model = renderModel({
        ...graphs,
        ...(sidecar === undefined ? {} : { sidecar }),
        ...(diff === undefined ? {} : { diff }),
      });
      switch (format) {
        case 'dot':
          return renderDot(model);
        case 'graphml':
          return renderGraphml(model);
        case 'json':
          return `${JSON.stringify(model)}\n`;
        default:
          return renderHtml(model);
      }
    },
  },
};

class UsageError extends Error {}

/**
 * Runs `palisade connectome ...` with the arguments after `connectome`; returns the exit code, or
 * a promise of it for a command that loads a package (`declared --static`).
 */
export function connectome(argv: readonly string[]): number | Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(CONNECTOME_USAGE);
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    // A flag before any command is no command's option: named as parseArgs names an unknown one.
    const message = name.startsWith('-')
      ? `Unknown option '${name}'`
      : `unknown command ${JSON.stringify(name)}`;
    return usageError('palisade connectome', message, CONNECTOME_USAGE);
  }
  const prefix = `palisade connectome ${name}`;
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return usageError(prefix, (error as Error).message, command.usage);
  }
  if (values['help'] === true) {
    process.stdout.write(command.usage);
    return EXIT_OK;
  }
  if (positionals.length !== command.positionals) {
    const files = command.positionals === 1 ? 'one file' : `${command.positionals} files`;
    return usageError(prefix, `expected ${files}, got ${positionals.length}`, command.usage);
  }
  let output: Uint8Array | string | Promise<Uint8Array | string>;
  try {
    output = command.run(values, positionals);
  } catch (error) {
    return failed(prefix, command.usage, error);
  }
  if (output instanceof Promise) {
    return output.then(
      (bytes) => {
        process.stdout.write(bytes);
        return EXIT_OK;
      },
      (error: unknown) => failed(prefix, command.usage, error),
    );
  }
  process.stdout.write(output);
  return EXIT_OK;
}

function failed(prefix: string, usage: string, error: unknown): number {
  if (error instanceof UsageError) return usageError(prefix, error.message, usage);
  if (error instanceof ConnectomeError || error instanceof StaticRefusal) {
    process.stderr.write(`${prefix}: ${error.code}: ${oneLine(error.message)}\n`);
    return EXIT_REFUSED;
  }
  throw error;
}

/** The reason on the first line (what a script greps), then the usage text, all on stderr. */
function usageError(prefix: string, message: string, usage: string): number {
  process.stderr.write(`${prefix}: ${oneLine(message)}\n\n${usage}`);
  return EXIT_USAGE;
}

function oneLine(message: string): string {
  return message.replace(/[\r\n\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}

// --- inputs -------------------------------------------------------------------------------------

const EMPTY = createGraph({ nodes: [], edges: [] });

function checked<T>(value: T, check: (value: T) => unknown): T {
  check(value);
  return value;
}

const ENVELOPE_KEYS = ['schema_version', 'algorithm', 'nodes', 'edges'];

/** A refusal raised while checking a file's content names the file first. */
function inFile<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConnectomeError && error.code !== 'PALISADE_ERR_CLI_INPUT') {
      throw new ConnectomeError(error.code, `${shownPath(file)}: ${error.message}`);
    }
    throw error;
  }
}

/** A graph file: the canonical envelope (its version and digest name checked) or bare nodes and edges. */
function readGraph(file: string): Graph {
  const value = readJsonObject(file);
  return inFile(file, () => {
    if (!('schema_version' in value) && !('algorithm' in value)) return createGraph(value as never);
    for (const key of Object.keys(value)) {
      if (!ENVELOPE_KEYS.includes(key)) {
        throw invalid(`the graph envelope has the unknown key ${JSON.stringify(key)}`);
      }
    }
    if (!isCurrentSchema(value['schema_version'], 'the graph')) {
      throw invalid(
        `schema_version is ${JSON.stringify(value['schema_version'])}; this reads ${SCHEMA_VERSION}`,
      );
    }
    if (value['algorithm'] !== undefined && !isMember(HASH_ALGORITHMS, value['algorithm'])) {
      throw invalid(`algorithm must be one of ${HASH_ALGORITHMS.join(', ')}`);
    }
    return createGraph({ nodes: value['nodes'], edges: value['edges'] } as never);
  });
}

function onSide(graph: Graph, side: Provenance, file: string): Graph {
  const stray = graph.edges.find((edge) => edge.provenance !== side);
  if (stray !== undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
      `${shownPath(file)}: the ${side} graph holds ${stray.provenance === 'observed' ? 'an' : 'a'} ${stray.provenance} edge ${JSON.stringify(stray.from)} -> ${JSON.stringify(stray.to)}`,
    );
  }
  return graph;
}

function algorithmOf(values: Record<string, unknown>): HashAlgorithm {
  const algorithm = values['algorithm'] ?? 'sha256';
  if (!isMember(HASH_ALGORITHMS, algorithm)) {
    throw new UsageError(
      `--algorithm ${JSON.stringify(algorithm)} is not one of ${HASH_ALGORITHMS.join(', ')}`,
    );
  }
  return algorithm;
}

function withHash(
  bytes: Uint8Array,
  algorithm: HashAlgorithm,
  values: Record<string, unknown>,
): Uint8Array | string {
  return values['hash'] === true ? `${digestHex(bytes, algorithm)}\n` : bytes;
}

function invalid(message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_INVALID', message);
}
