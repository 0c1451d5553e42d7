/**
 * Censuses over this package's library source: it writes no sign but `unset`, decides nothing,
 * and never enumerates paths. Run with the server package's census reader (its
 * test/census/source.ts). The command (`cli/`) reads and writes files and is out of their scope,
 * as it was while both lived in palisade-mcp: its option parser spells `allowPositionals`.
 */
import {
  type AstNode,
  type Census,
  child,
  children,
  literal,
  nameOf,
  parse,
  type Violation,
  walk,
} from '../../../palisade-mcp/test/census/source.js';

const inLibrary = (file: string): boolean => !file.startsWith('cli/');

/** The signs a consumer writes; the package writes only `unset`. */
const CONSUMER_SIGNS = new Set(['allow', 'deny', 'hold', 'ungoverned']);

/**
 * No sign other than `unset` is written: no `sign:` key or `.sign =` given any other literal, and
 * no consumer sign spelled anywhere but in the `SIGNS` vocabulary that names them all.
 */
export const noSignWritten: Census = (file, source) => {
  if (!inLibrary(file)) return [];
  const parsed = parse(file, source);
  const found: Violation[] = [];
  const vocabulary: AstNode[] = [];
  walk(parsed.program, (node) => {
    if (node.type === 'VariableDeclarator' && nameOf(child(node, 'id')) === 'SIGNS') vocabulary.push(node);
  });
  const inVocabulary = (node: AstNode): boolean =>
    vocabulary.some((declarator) => declarator.start <= node.start && node.end <= declarator.end);
  walk(parsed.program, (node) => {
    let written: AstNode | null = null;
    if (node.type === 'Property' && nameOf(child(node, 'key')) === 'sign') written = child(node, 'value');
    if (node.type === 'AssignmentExpression') {
      const target = child(node, 'left');
      if (target?.type === 'MemberExpression' && nameOf(child(target, 'property')) === 'sign') {
        written = child(node, 'right');
      }
    }
    const value = literal(written);
    if (value !== null && value !== 'unset') {
      found.push({ file, line: parsed.lineOf(node), what: `writes sign ${JSON.stringify(value)}` });
    }
    const text = literal(node);
    if (text !== null && CONSUMER_SIGNS.has(text) && !inVocabulary(node)) {
      found.push({
        file,
        line: parsed.lineOf(node),
        what: `spells the consumer sign ${JSON.stringify(text)}`,
      });
    }
  });
  return found;
};

const DECISION = /verdict|approv|deny|denied|risk|allow|permit|grant|reject/i;

/**
 * No verdict, approval or risk decision: nothing the connectome exports, and no field of any
 * record it declares or builds, is named for one. Authority is the consumer's.
 */
export const noVerdict: Census = (file, source) => {
  if (!inLibrary(file)) return [];
  const parsed = parse(file, source);
  const found: Violation[] = [];
  const flag = (name: string | null, node: AstNode, what: string): void => {
    if (name !== null && DECISION.test(name))
      found.push({ file, line: parsed.lineOf(node), what: `${what} ${name}` });
  };
  walk(parsed.program, (node) => {
    if (node.type === 'ExportNamedDeclaration') {
      const declaration = child(node, 'declaration');
      if (declaration !== null) {
        const declared =
          declaration.type === 'VariableDeclaration'
            ? children(declaration, 'declarations').map((d) => child(d, 'id'))
            : [child(declaration, 'id')];
        for (const id of declared) if (id !== null) flag(nameOf(id), id, 'exports');
      }
      for (const specifier of children(node, 'specifiers')) {
        flag(nameOf(child(specifier, 'exported')), specifier, 'exports');
      }
    }
    if (
      node.type === 'TSPropertySignature' ||
      node.type === 'Property' ||
      node.type === 'PropertyDefinition' ||
      node.type === 'MethodDefinition'
    ) {
      if (node['computed'] !== true) flag(nameOf(child(node, 'key')), node, 'has a field');
    }
  });
  return found;
};

/**
 * No enumeration of all paths: a connectome function named for enumerating paths
 * (`allPaths`, `everyPath`, `enumeratePaths`) has a body that only throws.
 */
export const noPathEnumeration: Census = (file, source) => {
  if (!inLibrary(file)) return [];
  const parsed = parse(file, source);
  const found: Violation[] = [];
  walk(parsed.program, (node) => {
    let name: string | null = null;
    let fn: AstNode | null = null;
    if (node.type === 'FunctionDeclaration') {
      name = nameOf(child(node, 'id'));
      fn = node;
    } else if (node.type === 'VariableDeclarator') {
      name = nameOf(child(node, 'id'));
      fn = child(node, 'init');
    } else if (node.type === 'MethodDefinition' || node.type === 'Property') {
      name = nameOf(child(node, 'key'));
      fn = child(node, 'value');
    }
    if (name === null || fn === null || !/^(all|every|enumerate)\w*paths?$/i.test(name)) return;
    const body = child(fn, 'body');
    const statements = body?.type === 'BlockStatement' ? children(body, 'body') : [];
    if (statements.length !== 1 || statements[0]?.type !== 'ThrowStatement') {
      found.push({ file, line: parsed.lineOf(node), what: `${name} does more than refuse` });
    }
  });
  return found;
};
