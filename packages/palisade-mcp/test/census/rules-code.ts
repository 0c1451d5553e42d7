/**
 * Censuses over the package's code as code: no catalog of its own, no code built from text, the
 * Node built-ins it imports, and the direction imports flow between its parts.
 */
import {
  type AstNode,
  builtinName,
  type Census,
  child,
  children,
  importsOf,
  literal,
  memberNames,
  nameOf,
  parse,
  partOf,
  resolveRelative,
  type SourceFile,
  texts,
  type Violation,
  walk,
} from './source.js';

/** The public constructors a catalog is made with; the package defines them and never calls them. */
const CATALOG_CONSTRUCTORS = new Set([
  'createServer',
  'defineTool',
  'definePrompt',
  'defineResourceTemplate',
]);

/** Key sets that make an object literal a catalog entry. */
const ENTRY_SHAPES: ReadonlyArray<{ readonly kind: string; readonly keys: readonly string[] }> = [
  { kind: 'tool', keys: ['name', 'handler', 'inputSchema'] },
  { kind: 'resource', keys: ['uri', 'read'] },
  { kind: 'resource template', keys: ['uriTemplate', 'read'] },
  { kind: 'prompt', keys: ['name', 'get'] },
];

/**
 * No concrete catalog or tool: `createServer(` and `defineTool(` (those of the package, not
 * `node:http`'s) are never called outside their own definitions, and no object literal has the
 * keys of a tool, resource, template or prompt. `offerFile`, when given, is the one file allowed
 * to build resource, template and prompt definitions: the connectome's `connectomeResources`
 * hands the host three `connectome://` resources it may put in its own catalog (its package's
 * census passes `resources.ts`); the server package has no such file.
 */
export function noOwnCatalogExcept(offerFile: string | undefined): Census {
  return (file, source) => ownCatalog(file, source, offerFile);
}

export const noOwnCatalog: Census = noOwnCatalogExcept(undefined);

function ownCatalog(file: string, source: string, offerFile: string | undefined): Violation[] {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  const builtinLocals = new Set(
    importsOf(parsed)
      .filter((record) => builtinName(record.specifier) !== null)
      .flatMap((record) => record.bindings.map((binding) => binding.local)),
  );
  const definitions: AstNode[] = [];
  walk(parsed.program, (node) => {
    if (node.type === 'FunctionDeclaration' && CATALOG_CONSTRUCTORS.has(nameOf(child(node, 'id')) ?? '')) {
      definitions.push(node);
    }
  });
  walk(parsed.program, (node) => {
    if (node.type === 'CallExpression') {
      const callee = child(node, 'callee');
      const name = callee?.type === 'Identifier' ? nameOf(callee) : null;
      const own = definitions.some(
        (d) => nameOf(child(d, 'id')) === name && d.start <= node.start && node.end <= d.end,
      );
      if (name !== null && CATALOG_CONSTRUCTORS.has(name) && !builtinLocals.has(name) && !own) {
        found.push({ file, line: parsed.lineOf(node), what: `calls ${name}` });
      }
    }
    if (node.type === 'ObjectExpression') {
      const keys = new Set(children(node, 'properties').map((property) => nameOf(child(property, 'key'))));
      for (const shape of ENTRY_SHAPES) {
        if (shape.kind !== 'tool' && file === offerFile) continue;
        if (shape.keys.every((key) => keys.has(key))) {
          found.push({ file, line: parsed.lineOf(node), what: `builds a ${shape.kind} literal` });
        }
      }
    }
  });
  return found;
}

const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate']);

/**
 * No code from text: no `eval`, no `Function` constructor (called or `new`), no `node:vm`, no
 * `createRequire`, no timer given a string, and no `import()` whose specifier is not a literal.
 */
export const noEval: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  const at = (node: AstNode, what: string): void => {
    found.push({ file, line: parsed.lineOf(node), what });
  };
  for (const record of importsOf(parsed)) {
    const builtin = builtinName(record.specifier);
    if (builtin === 'node:vm') found.push({ file, line: record.line, what: 'imports node:vm' });
    if (
      builtin === 'node:module' &&
      record.bindings.some((binding) => binding.imported === 'createRequire')
    ) {
      found.push({ file, line: record.line, what: 'imports createRequire' });
    }
  }
  walk(parsed.program, (node) => {
    if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const callee = child(node, 'callee');
      let name: string | null = null;
      if (callee?.type === 'Identifier') name = nameOf(callee);
      if (callee?.type === 'MemberExpression') {
        const { object, property } = memberNames(callee);
        if (object !== null && GLOBAL_OBJECTS.has(object)) name = property;
      }
      if (name === 'eval') at(node, 'calls eval');
      if (name === 'Function') at(node, `${node.type === 'NewExpression' ? 'constructs' : 'calls'} Function`);
      if (name !== null && TIMERS.has(name)) {
        const first = children(node, 'arguments')[0] ?? null;
        if (first !== null && (first.type === 'Literal' || first.type === 'TemplateLiteral')) {
          at(node, `gives ${name} a string to run`);
        }
      }
    }
    if (node.type === 'ImportExpression' && literal(child(node, 'source')) === null) {
      at(node, 'imports a module named by a computed specifier');
    }
  });
  return found;
};

/**
 * Exactly the listed built-ins: a Node built-in not in `allowed` is named, and so is one imported
 * without the `node:` prefix (which would hide it from a reader scanning for `node:`).
 */
export function builtinCensus(allowed: readonly string[]): Census {
  return (file, source) => {
    const found: Violation[] = [];
    for (const record of importsOf(parse(file, source))) {
      const builtin = builtinName(record.specifier);
      if (builtin === null) continue;
      if (!record.specifier.startsWith('node:')) {
        found.push({ file, line: record.line, what: `imports ${record.specifier} without the node: prefix` });
      }
      if (!allowed.includes(builtin)) found.push({ file, line: record.line, what: `imports ${builtin}` });
    }
    return found;
  };
}

/** Every Node built-in a file imports, type-only imports included. */
export function builtinsIn(file: string, source: string): string[] {
  return importsOf(parse(file, source)).flatMap((record) => builtinName(record.specifier) ?? []);
}

/** One import between two parts of the package. */
export interface PartEdge {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly line: number;
  readonly typeOnly: boolean;
}

/** The imports of one file that cross into another part. */
export function partEdges(file: string, source: string): PartEdge[] {
  return importsOf(parse(file, source)).flatMap((record) => {
    const target = resolveRelative(file, record.specifier);
    if (target === null || partOf(target) === partOf(file)) return [];
    return [{ from: partOf(file), to: partOf(target), file, line: record.line, typeOnly: record.typeOnly }];
  });
}

/**
 * Imports flow one way: given each part's level, an import is allowed only into a strictly lower
 * level, so two parts on one level never import each other and no import climbs. A type-only
 * import counts: it still ties the lower part's source to the upper one's.
 */
export function layeringCensus(levels: Readonly<Record<string, number>>): Census {
  return (file, source) =>
    partEdges(file, source).flatMap((edge): Violation[] => {
      const from = levels[edge.from];
      const to = levels[edge.to];
      const kind = edge.typeOnly ? 'type import' : 'import';
      if (from === undefined || to === undefined) {
        const unknown = from === undefined ? edge.from : edge.to;
        return [
          { file, line: edge.line, what: `${kind} ${edge.from} → ${edge.to}: part ${unknown} has no level` },
        ];
      }
      if (to < from) return [];
      return [{ file, line: edge.line, what: `${kind} ${edge.from} → ${edge.to} goes against the flow` }];
    });
}

/** Inside `part`: a file's sub-part, its folder under `part/`, or `shared` for the files at its top. */
export function subpartOf(part: string, file: string): string | null {
  if (!file.startsWith(`${part}/`)) return null;
  const rest = file.slice(part.length + 1);
  const slash = rest.indexOf('/');
  return slash === -1 ? 'shared' : rest.slice(0, slash);
}

/**
 * The same one-way flow inside one part, between its folders and the files at its top (`shared`):
 * an import between two sub-parts goes only to a strictly lower level.
 */
export function innerLayeringCensus(part: string, levels: Readonly<Record<string, number>>): Census {
  return (file, source) => {
    const from = subpartOf(part, file);
    if (from === null) return [];
    return importsOf(parse(file, source)).flatMap((record): Violation[] => {
      const target = resolveRelative(file, record.specifier);
      const to = target === null ? null : subpartOf(part, target);
      if (to === null || to === from) return [];
      const kind = record.typeOnly ? 'type import' : 'import';
      const edge = `${kind} ${part}/${from} → ${part}/${to}`;
      const fromLevel = levels[from];
      const toLevel = levels[to];
      if (fromLevel === undefined || toLevel === undefined) {
        return [
          { file, line: record.line, what: `${edge}: ${fromLevel === undefined ? from : to} has no level` },
        ];
      }
      return toLevel < fromLevel ? [] : [{ file, line: record.line, what: `${edge} goes against the flow` }];
    });
  };
}

/** A folder entered only through its `index.ts`: no file outside it imports one of its other files. */
export function throughIndexCensus(folder: string): Census {
  return (file, source) =>
    file.startsWith(`${folder}/`)
      ? []
      : importsOf(parse(file, source)).flatMap((record): Violation[] => {
          const target = resolveRelative(file, record.specifier);
          if (target === null || !target.startsWith(`${folder}/`) || target === `${folder}/index.ts`)
            return [];
          return [{ file, line: record.line, what: `imports ${target} past ${folder}/index.ts` }];
        });
}

/** The JSON-RPC reserved range (-32768 to -32000), where every code Palisade sends sits. */
function inCodeRange(value: number): boolean {
  return value >= 32_000 && value <= 32_768;
}

const CODE_IN_TEXT = /-32[0-7]\d\d(?!\d)/;

/**
 * Every JSON-RPC error code is written once, in the catalogue (`catalogue`, relative to `src/`):
 * anywhere else a number of the reserved range, whatever its sign, or a text spelling one, is a
 * code written by hand beside the named constants. Comments are not read.
 */
export function rawErrorCodeCensus(catalogue: string | undefined): Census {
  return (file, source) => {
    if (file === catalogue) return [];
    const parsed = parse(file, source);
    const found: Violation[] = [];
    walk(parsed.program, (node) => {
      if (node.type === 'Literal' && typeof node['value'] === 'number' && inCodeRange(node['value'])) {
        found.push({ file, line: parsed.lineOf(node), what: `writes the code ${node['value']} by hand` });
      }
    });
    for (const { text, node } of texts(parsed)) {
      const code = CODE_IN_TEXT.exec(text)?.[0];
      if (code !== undefined) found.push({ file, line: parsed.lineOf(node), what: `spells ${code} in text` });
    }
    return found;
  };
}

/**
 * Every import circle among the files, type-only imports included (a type import still ties one
 * file's source to the other's): each strongly connected set of two or more files, its files
 * sorted and joined by ` ↔ `, the circles sorted. None is the goal; a file importing itself counts.
 */
export function importCircles(files: readonly SourceFile[]): string[] {
  const known = new Set(files.map(({ file }) => file));
  const edges = new Map<string, string[]>();
  for (const { file, source } of files) {
    const targets = importsOf(parse(file, source)).flatMap((record) => {
      const target = resolveRelative(file, record.specifier);
      return target !== null && known.has(target) ? [target] : [];
    });
    edges.set(file, [...new Set(targets)]);
  }
  // Tarjan's strongly connected components, iterative so a long chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  let next = 0;
  for (const root of known) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; at: number }> = [{ file: root, at: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.file) ?? [];
      if (frame.at < targets.length) {
        const target = targets[frame.at++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const members: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        members.push(member);
        if (member === frame.file) break;
      }
      const selfImport = (edges.get(frame.file) ?? []).includes(frame.file);
      if (members.length > 1 || selfImport) circles.push(members.sort().join(' ↔ '));
    }
  }
  return circles.sort();
}
