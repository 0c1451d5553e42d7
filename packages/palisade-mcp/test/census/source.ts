/**
 * What every census reads: the server package's own source, parsed by a real parser (oxc), never
 * matched by regular expressions, so a barred name inside a comment is not a violation and one
 * spread across lines or aliased on import still is. Nothing here evaluates the source.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync, visitorKeys } from 'oxc-parser';

/** The parser's ESTree nodes, read structurally: `type`, offsets and named children. */
export interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

/** One barred act, named by the file (relative to `src/`), its line, and what it is. */
export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly what: string;
}

export type Census = (file: string, source: string) => Violation[];

export interface SourceFile {
  readonly file: string;
  readonly source: string;
}

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Every `.ts` file under `packages/<folder>/src` (the server package unless another is named), as
 * `wire/encode.ts`, sorted. The other packages' censuses (palisade-mcp-connectome) read theirs here.
 */
export function sourceFiles(folder = 'palisade-mcp'): SourceFile[] {
  const src = `${PACKAGES}${folder}/src/`;
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({ file, source: readFileSync(`${src}${file}`, 'utf8') }));
}

/** Runs a census over every source file and renders what it finds as `file:line what`. */
export function runCensus(census: Census, files: readonly SourceFile[] = sourceFiles()): string[] {
  return files.flatMap(({ file, source }) => census(file, source)).map(render);
}

/** Runs a census on one planted source string, as a file at `file`, rendered as `runCensus` does. */
export function plant(census: Census, file: string, source: string): string[] {
  return census(file, source).map(render);
}

export function render(violation: Violation): string {
  return `${violation.file}:${violation.line} ${violation.what}`;
}

export interface Parsed {
  readonly program: AstNode;
  readonly lineOf: (node: AstNode) => number;
}

const parsedCache = new Map<string, Parsed>();

/** Parses one module; a file the parser refuses is a census failure, not a silent pass. */
export function parse(file: string, source: string): Parsed {
  const key = `${file}\0${source}`;
  const cached = parsedCache.get(key);
  if (cached !== undefined) return cached;
  const parsed = parseFresh(file, source);
  parsedCache.set(key, parsed);
  return parsed;
}

function parseFresh(file: string, source: string): Parsed {
  const result = parseSync(file, source, { sourceType: 'module' });
  const first = result.errors[0];
  if (first !== undefined) throw new Error(`${file}: the parser refused the source: ${first.message}`);
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (node: AstNode): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= node.start) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  return { program: result.program as unknown as AstNode, lineOf };
}

export function isNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

export function child(node: AstNode, key: string): AstNode | null {
  const value = node[key];
  return isNode(value) ? value : null;
}

export function children(node: AstNode, key: string): AstNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** Depth-first over every node, with its parent, following the parser's own visitor keys. */
export function walk(root: AstNode, visit: (node: AstNode, parent: AstNode | null) => void): void {
  const stack: Array<readonly [AstNode, AstNode | null]> = [[root, null]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    visit(node, parent);
    const keys = visitorKeys[node.type] ?? [];
    for (let k = keys.length - 1; k >= 0; k--) {
      const value = node[keys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push([value[i], node]);
      } else if (isNode(value)) {
        stack.push([value, node]);
      }
    }
  }
}

/** A string the parser sees whole: a string literal, or a template without substitutions. */
export function literal(node: AstNode | null): string | null {
  if (node === null) return null;
  if (node.type === 'Literal' && typeof node['value'] === 'string') return node['value'];
  if (node.type === 'TemplateLiteral' && children(node, 'expressions').length === 0) {
    return cooked(children(node, 'quasis')[0] ?? null);
  }
  return null;
}

function cooked(quasi: AstNode | null): string | null {
  const value = quasi?.['value'] as { cooked?: unknown } | undefined;
  return typeof value?.cooked === 'string' ? value.cooked : null;
}

/** Every piece of text the source writes: string literals and each fixed part of a template. */
export function texts(parsed: Parsed): Array<{ readonly text: string; readonly node: AstNode }> {
  const found: Array<{ text: string; node: AstNode }> = [];
  walk(parsed.program, (node) => {
    if (node.type === 'Literal' && typeof node['value'] === 'string')
      found.push({ text: node['value'], node });
    if (node.type === 'TemplateElement') {
      const text = cooked(node);
      if (text !== null) found.push({ text, node });
    }
  });
  return found;
}

/** The name an identifier, a property key or a member property spells, if it is fixed. */
export function nameOf(node: AstNode | null): string | null {
  if (node === null) return null;
  if ((node.type === 'Identifier' || node.type === 'PrivateIdentifier') && typeof node['name'] === 'string') {
    return node['name'];
  }
  return literal(node);
}

/** `a.b` or `a['b']`: the object's identifier and the property's fixed name. */
export function memberNames(node: AstNode): {
  readonly object: string | null;
  readonly property: string | null;
} {
  const object = child(node, 'object');
  const property = child(node, 'property');
  const computed = node['computed'] === true;
  return {
    object: object?.type === 'Identifier' ? nameOf(object) : null,
    property: computed ? literal(property) : nameOf(property),
  };
}

export interface Binding {
  readonly imported: string;
  readonly local: string;
  readonly typeOnly: boolean;
}

export interface ImportRecord {
  readonly specifier: string;
  readonly line: number;
  readonly kind: 'import' | 're-export' | 'dynamic';
  /** Erased at compile time: `import type`, `export type … from`. */
  readonly typeOnly: boolean;
  /** Per binding: the exported name (`default`, `*` for a namespace), the local name, whether erased. */
  readonly bindings: readonly Binding[];
}

/**
 * Every module the file names: static imports, re-exports and `import()` whose specifier is a
 * literal. A dynamic import with any other specifier is recorded with specifier `null` by
 * `dynamicImports`, not here.
 */
export function importsOf(parsed: Parsed): ImportRecord[] {
  const records: ImportRecord[] = [];
  walk(parsed.program, (node) => {
    if (
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportNamedDeclaration' ||
      node.type === 'ExportAllDeclaration'
    ) {
      const specifier = literal(child(node, 'source'));
      if (specifier === null) return;
      const statementType = node['importKind'] === 'type' || node['exportKind'] === 'type';
      const bindings = children(node, 'specifiers').flatMap((entry): Binding[] => {
        if (node.type !== 'ImportDeclaration') return [];
        const local = nameOf(child(entry, 'local')) ?? '';
        const typeOnly = statementType || entry['importKind'] === 'type';
        if (entry.type === 'ImportNamespaceSpecifier') return [{ imported: '*', local, typeOnly }];
        if (entry.type === 'ImportDefaultSpecifier') return [{ imported: 'default', local, typeOnly }];
        return [{ imported: nameOf(child(entry, 'imported')) ?? '', local, typeOnly }];
      });
      const typeOnly =
        statementType || (bindings.length > 0 && bindings.every((binding) => binding.typeOnly));
      records.push({
        specifier,
        line: parsed.lineOf(node),
        kind: node.type === 'ImportDeclaration' ? 'import' : 're-export',
        typeOnly,
        bindings,
      });
    } else if (node.type === 'ImportExpression') {
      const specifier = literal(child(node, 'source'));
      if (specifier !== null) {
        records.push({
          specifier,
          line: parsed.lineOf(node),
          kind: 'dynamic',
          typeOnly: false,
          bindings: [],
        });
      }
    }
  });
  return records;
}

const BUILTINS = new Set(builtinModules);

/** `node:fs`, `fs`, `fs/promises` → `node:fs/promises` style; null when not a Node built-in. */
export function builtinName(specifier: string): string | null {
  if (specifier.startsWith('node:')) return specifier;
  return BUILTINS.has(specifier) ? `node:${specifier}` : null;
}

/** The part of the package a file belongs to: its first folder, or its own name at the top. */
export function partOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file.replace(/\.ts$/, '') : file.slice(0, slash);
}

/** The file a relative specifier names, relative to `src/`, as the compiler maps `.js` to `.ts`. */
export function resolveRelative(file: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  return posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
}

export interface Use {
  /** The export used: a named binding, or a property read off a namespace or default import. */
  readonly name: string;
  readonly line: number;
}

/**
 * What a file uses of one module (`node:crypto`, `ws`): each value binding it imports by name,
 * each property it reads off a namespace or default import of it, `*` for a re-export and
 * `import()` for a dynamic import (whose use the parser cannot follow).
 */
export function usesOf(parsed: Parsed, records: readonly ImportRecord[], module: string): Use[] {
  const uses: Use[] = [];
  const namespaces = new Set<string>();
  for (const record of records) {
    if ((builtinName(record.specifier) ?? record.specifier) !== module) continue;
    if (record.kind === 're-export') uses.push({ name: '*', line: record.line });
    if (record.kind === 'dynamic') uses.push({ name: 'import()', line: record.line });
    for (const binding of record.bindings) {
      if (binding.typeOnly) continue;
      if (binding.imported === '*' || binding.imported === 'default') namespaces.add(binding.local);
      else uses.push({ name: binding.imported, line: record.line });
    }
  }
  if (namespaces.size > 0) {
    walk(parsed.program, (node) => {
      if (node.type !== 'MemberExpression') return;
      const { object, property } = memberNames(node);
      if (object !== null && namespaces.has(object)) {
        uses.push({ name: property ?? '[computed]', line: parsed.lineOf(node) });
      }
    });
  }
  return uses;
}

/** Identifier references, property keys and member names: every name the source spells. */
export function names(parsed: Parsed): Array<{ readonly name: string; readonly node: AstNode }> {
  const found: Array<{ name: string; node: AstNode }> = [];
  walk(parsed.program, (node) => {
    if (node.type === 'Identifier' && typeof node['name'] === 'string')
      found.push({ name: node['name'], node });
  });
  return found;
}
