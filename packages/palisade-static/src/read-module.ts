/**
 * Reads one module's facts from its syntax tree: what it imports, what it exports, its
 * top-level functions and the calls made in them. Parsing is all that happens; the source is
 * never evaluated, so a module that throws or writes at load time does neither here.
 */
import { parseSync, visitorKeys } from 'oxc-parser';
import { MAX_DETAIL_CHARS } from './limits.js';

/** The parser's ESTree nodes, read structurally: only `type`, offsets and named children are used. */
interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

/** A specifier the module loads, statically or by a literal `import()` / `require()`. */
export interface ImportFact {
  readonly specifier: string;
  readonly line: number;
}

/** A name bound by an import: `imported` is the export name, `default`, or `*` for a namespace. */
export interface Binding {
  readonly specifier: string;
  readonly imported: string;
}

/** An export name: either a local binding or a re-export from another module. */
export type ExportFact =
  | { readonly local: string }
  | { readonly specifier: string; readonly imported: string };

export type Callee =
  | { readonly kind: 'identifier'; readonly name: string }
  | { readonly kind: 'member'; readonly object: string; readonly property: string }
  /** A name bound inside a function (a parameter, a local): invisible to a static read. */
  | { readonly kind: 'local'; readonly name: string }
  | { readonly kind: 'computed'; readonly text: string };

export interface CallFact {
  /** The top-level function the call sits in, or null for the module's own top-level code. */
  readonly caller: string | null;
  readonly line: number;
  readonly callee: Callee;
}

export interface Unseen {
  readonly line: number;
  readonly reason: 'dynamic-import' | 'dynamic-require';
  readonly detail: string;
}

export interface ModuleFacts {
  readonly imports: readonly ImportFact[];
  readonly unseen: readonly Unseen[];
  readonly bindings: ReadonlyMap<string, Binding>;
  readonly exports: ReadonlyMap<string, ExportFact>;
  readonly starExports: readonly string[];
  readonly functions: ReadonlySet<string>;
  readonly calls: readonly CallFact[];
}

export type ReadResult =
  | { readonly ok: true; readonly facts: ModuleFacts }
  | { readonly ok: false; readonly line: number; readonly message: string };

function isNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function child(node: AstNode, key: string): AstNode | null {
  const value = node[key];
  return isNode(value) ? value : null;
}

function children(node: AstNode, key: string): AstNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

function name(node: AstNode | null): string | null {
  if (node === null) return null;
  if (node.type === 'Identifier' && typeof node['name'] === 'string') return node['name'];
  if (node.type === 'Literal' && typeof node['value'] === 'string') return node['value'];
  return null;
}

/** A string the parser can see whole: a string literal or a template with no substitution. */
function literal(node: AstNode | null): string | null {
  if (node === null) return null;
  if (node.type === 'Literal' && typeof node['value'] === 'string') return node['value'];
  if (node.type === 'TemplateLiteral' && children(node, 'expressions').length === 0) {
    const cooked = (children(node, 'quasis')[0]?.['value'] as { cooked?: unknown } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : null;
  }
  return null;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The names a binding pattern introduces. */
function patternNames(node: AstNode | null, into: Set<string>): void {
  if (node === null) return;
  switch (node.type) {
    case 'Identifier':
      into.add(String(node['name']));
      return;
    case 'ObjectPattern':
      for (const p of children(node, 'properties'))
        patternNames(child(p, p.type === 'RestElement' ? 'argument' : 'value'), into);
      return;
    case 'ArrayPattern':
      for (const e of children(node, 'elements')) patternNames(e, into);
      return;
    case 'RestElement':
      patternNames(child(node, 'argument'), into);
      return;
    case 'AssignmentPattern':
      patternNames(child(node, 'left'), into);
      return;
    case 'TSParameterProperty':
      patternNames(child(node, 'parameter'), into);
      return;
    default:
      return;
  }
}

/**
 * Every name a function binds: its own name (for an expression), its parameters, and its
 * body's declarations at any block depth. Treating block-scoped names as function-scoped can
 * only hide a call behind a local, never attach it to the wrong function: a hidden call is listed.
 */
function functionScope(fn: AstNode): Set<string> {
  const names = new Set<string>();
  if (fn.type === 'FunctionExpression') patternNames(child(fn, 'id'), names);
  for (const p of children(fn, 'params')) patternNames(p, names);
  const pending: AstNode[] = [];
  const body = child(fn, 'body');
  if (body !== null) pending.push(body);
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.type === 'VariableDeclarator') patternNames(child(node, 'id'), names);
    if (node.type === 'CatchClause') patternNames(child(node, 'param'), names);
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') {
      patternNames(child(node, 'id'), names);
    }
    if (FUNCTION_TYPES.has(node.type) || node.type.startsWith('TS')) continue;
    for (const key of visitorKeys[node.type] ?? []) {
      const value = node[key];
      if (Array.isArray(value)) for (const v of value) if (isNode(v)) pending.push(v);
      if (isNode(value)) pending.push(value);
    }
  }
  return names;
}

function isFunctionValue(node: AstNode | null): boolean {
  if (node === null) return false;
  if (
    node.type === 'ParenthesizedExpression' ||
    node.type === 'TSAsExpression' ||
    node.type === 'TSSatisfiesExpression'
  ) {
    return isFunctionValue(child(node, 'expression'));
  }
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
}

function lineTable(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= MAX_DETAIL_CHARS ? flat : `${flat.slice(0, MAX_DETAIL_CHARS - 1)}…`;
}

function sourceType(file: string): 'module' | 'commonjs' | 'unambiguous' {
  if (/\.c[jt]s$/.test(file)) return 'commonjs';
  // A `.js` file may be either; the parser decides from its syntax, as Node does from package.json.
  if (/\.jsx?$/.test(file)) return 'unambiguous';
  return 'module';
}

export function readModule(file: string, source: string): ReadResult {
  const parsed = parseSync(file, source, { sourceType: sourceType(file) });
  const starts = lineTable(source);
  const first = parsed.errors[0];
  if (first !== undefined) {
    return { ok: false, line: lineOf(starts, first.labels[0]?.start ?? 0), message: first.message };
  }
  const imports: ImportFact[] = [];
  const unseen: Unseen[] = [];
  const bindings = new Map<string, Binding>();
  const exports = new Map<string, ExportFact>();
  const starExports: string[] = [];
  const functions = new Set<string>();
  const calls: CallFact[] = [];
  const at = (node: AstNode): number => lineOf(starts, node.start);
  const text = (node: AstNode): string => cut(source.slice(node.start, node.end));

  const scopes: Set<string>[] = [];
  const shadowed = (n: string): boolean => scopes.some((s) => s.has(n));

  function visitCall(node: AstNode, caller: string | null): void {
    const callee = child(node, 'callee');
    if (callee === null) return;
    if (
      node.type === 'CallExpression' &&
      callee.type === 'Identifier' &&
      callee['name'] === 'require' &&
      !shadowed('require')
    ) {
      const specifier = literal(children(node, 'arguments')[0] ?? null);
      if (specifier !== null) imports.push({ specifier, line: at(node) });
      else unseen.push({ line: at(node), reason: 'dynamic-require', detail: text(node) });
      return;
    }
    let target: Callee;
    if (callee.type === 'Identifier') {
      const n = String(callee['name']);
      target = shadowed(n) ? { kind: 'local', name: n } : { kind: 'identifier', name: n };
    } else if (
      callee.type === 'MemberExpression' &&
      callee['computed'] !== true &&
      child(callee, 'object')?.type === 'Identifier' &&
      !shadowed(String(child(callee, 'object')!['name']))
    ) {
      target = {
        kind: 'member',
        object: String(child(callee, 'object')!['name']),
        property: String(child(callee, 'property')?.['name']),
      };
    } else if (callee.type === 'Super') {
      return;
    } else {
      target = { kind: 'computed', text: text(callee) };
    }
    calls.push({ caller, line: at(node), callee: target });
  }

  function walk(node: AstNode, caller: string | null): void {
    if (
      node.type.startsWith('TS') &&
      node.type !== 'TSAsExpression' &&
      node.type !== 'TSSatisfiesExpression' &&
      node.type !== 'TSNonNullExpression'
    ) {
      // Type positions hold no runtime calls; `import x = require()` is read at the top level.
      return;
    }
    if (node.type === 'ImportExpression') {
      const specifier = literal(child(node, 'source'));
      if (specifier !== null) imports.push({ specifier, line: at(node) });
      else unseen.push({ line: at(node), reason: 'dynamic-import', detail: text(node) });
    }
    if (node.type === 'CallExpression' || node.type === 'NewExpression') visitCall(node, caller);
    const fn = FUNCTION_TYPES.has(node.type);
    if (fn) scopes.push(functionScope(node));
    for (const key of visitorKeys[node.type] ?? []) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const v of value) if (isNode(v)) walk(v, caller);
      } else if (isNode(value)) walk(value, caller);
    }
    if (fn) scopes.pop();
  }

  function declare(declaration: AstNode, exported: boolean): void {
    if (declaration.type === 'FunctionDeclaration') {
      const local = name(child(declaration, 'id'));
      if (local === null) return;
      functions.add(local);
      if (exported) exports.set(local, { local });
      walk(declaration, local);
      return;
    }
    if (declaration.type === 'VariableDeclaration') {
      for (const d of children(declaration, 'declarations')) {
        const id = child(d, 'id');
        const init = child(d, 'init');
        const local = id?.type === 'Identifier' ? String(id['name']) : null;
        if (local !== null && isFunctionValue(init)) {
          functions.add(local);
          if (exported) exports.set(local, { local });
          walk(init!, local);
        } else {
          if (exported) {
            const names = new Set<string>();
            patternNames(id, names);
            for (const n of names) exports.set(n, { local: n });
          }
          if (init !== null) walk(init, null);
        }
      }
      return;
    }
    if (exported && declaration.type === 'ClassDeclaration') {
      const local = name(child(declaration, 'id'));
      if (local !== null) exports.set(local, { local });
    }
    walk(declaration, null);
  }

  for (const statement of children(parsed.program as unknown as AstNode, 'body')) {
    switch (statement.type) {
      case 'ImportDeclaration': {
        // `import type` is erased by the compiler: it loads nothing at run time.
        if (statement['importKind'] === 'type') break;
        const specifier = literal(child(statement, 'source'))!;
        imports.push({ specifier, line: at(statement) });
        for (const s of children(statement, 'specifiers')) {
          const local = name(child(s, 'local'));
          if (local === null || s['importKind'] === 'type') continue;
          const imported =
            s.type === 'ImportDefaultSpecifier'
              ? 'default'
              : s.type === 'ImportNamespaceSpecifier'
                ? '*'
                : (name(child(s, 'imported')) ?? local);
          bindings.set(local, { specifier, imported });
        }
        break;
      }
      case 'ExportNamedDeclaration': {
        if (statement['exportKind'] === 'type') break;
        const source = literal(child(statement, 'source'));
        if (source !== null) imports.push({ specifier: source, line: at(statement) });
        for (const s of children(statement, 'specifiers')) {
          if (s['exportKind'] === 'type') continue;
          const local = name(child(s, 'local'));
          const exported = name(child(s, 'exported'));
          if (local === null || exported === null) continue;
          exports.set(exported, source !== null ? { specifier: source, imported: local } : { local });
        }
        const declaration = child(statement, 'declaration');
        if (declaration !== null) declare(declaration, true);
        break;
      }
      case 'ExportAllDeclaration': {
        if (statement['exportKind'] === 'type') break;
        const source = literal(child(statement, 'source'))!;
        imports.push({ specifier: source, line: at(statement) });
        const exported = name(child(statement, 'exported'));
        if (exported === null) starExports.push(source);
        else exports.set(exported, { specifier: source, imported: '*' });
        break;
      }
      case 'ExportDefaultDeclaration': {
        const declaration = child(statement, 'declaration');
        if (declaration === null) break;
        if (declaration.type === 'FunctionDeclaration') {
          const local = name(child(declaration, 'id')) ?? 'default';
          functions.add(local);
          exports.set('default', { local });
          walk(declaration, local);
        } else if (isFunctionValue(declaration)) {
          functions.add('default');
          exports.set('default', { local: 'default' });
          walk(declaration, 'default');
        } else {
          const local = name(declaration);
          if (declaration.type === 'Identifier' && local !== null) exports.set('default', { local });
          walk(declaration, null);
        }
        break;
      }
      case 'TSImportEqualsDeclaration': {
        const reference = child(statement, 'moduleReference');
        if (statement['importKind'] === 'type' || reference?.type !== 'TSExternalModuleReference') break;
        const specifier = literal(child(reference, 'expression'));
        if (specifier === null) break;
        imports.push({ specifier, line: at(statement) });
        const local = name(child(statement, 'id'));
        if (local !== null) bindings.set(local, { specifier, imported: '*' });
        break;
      }
      case 'FunctionDeclaration':
      case 'VariableDeclaration':
        declare(statement, false);
        break;
      default:
        walk(statement, null);
    }
  }
  return { ok: true, facts: { imports, unseen, bindings, exports, starExports, functions, calls } };
}
