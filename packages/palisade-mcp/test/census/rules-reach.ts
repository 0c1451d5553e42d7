/** Censuses for what the package never reaches for: an outbound connection, a client, OAuth. */
import {
  type AstNode,
  builtinName,
  type Census,
  child,
  importsOf,
  memberNames,
  nameOf,
  names,
  parse,
  texts,
  usesOf,
  type Violation,
  walk,
} from './source.js';

/** Per built-in, the exports that open a connection or make a request. */
const DIALLERS: Readonly<Record<string, readonly string[]>> = {
  'node:net': ['connect', 'createConnection', 'Socket'],
  'node:tls': ['connect', 'TLSSocket'],
  'node:http2': ['connect'],
  'node:http': ['request', 'get', 'Agent', 'globalAgent', 'ClientRequest'],
  'node:https': ['request', 'get', 'Agent', 'globalAgent'],
};

/** Built-ins whose every use is outbound: datagrams and name lookups. */
const OUTBOUND_MODULES = new Set(['node:dgram', 'node:dns', 'node:dns/promises']);

/** Globals that open a connection. */
const GLOBAL_CLIENTS = new Set(['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']);

/** Client packages: MCP clients and HTTP or socket clients. */
const CLIENT_PACKAGES = [
  /^@modelcontextprotocol\/client(\/|$)/,
  /^@modelcontextprotocol\/sdk\/client(\/|$)/,
  /^@modelcontextprotocol\/sdk\/dist\/[a-z]+\/client(\/|$)/,
  /^undici(\/|$)/,
  /^ws(\/|$)/,
  /^axios(\/|$)/,
  /^node-fetch(\/|$)/,
  /^cross-fetch(\/|$)/,
  /^got(\/|$)/,
  /^superagent(\/|$)/,
];

/** A global read where it is a value: not a key, not a member name, not a declaration of its own. */
function isReference(node: AstNode, parent: AstNode | null): boolean {
  if (parent === null) return true;
  if (parent.type === 'MemberExpression')
    return child(parent, 'object') === node || parent['computed'] === true;
  if (
    parent.type === 'Property' ||
    parent.type === 'TSPropertySignature' ||
    parent.type === 'PropertyDefinition'
  ) {
    return child(parent, 'value') === node;
  }
  return !['ImportSpecifier', 'ExportSpecifier', 'MethodDefinition', 'TSQualifiedName'].includes(parent.type);
}

/**
 * No outbound connection and no client module: none of the built-ins' dialling exports, no
 * datagram or DNS module, no `fetch`, `WebSocket` or `EventSource`, no client package.
 */
export const noOutbound: Census = (file, source) => {
  const parsed = parse(file, source);
  const records = importsOf(parsed);
  const found: Violation[] = [];
  for (const [module, barred] of Object.entries(DIALLERS)) {
    for (const use of usesOf(parsed, records, module)) {
      if (barred.includes(use.name)) found.push({ file, line: use.line, what: `uses ${module} ${use.name}` });
    }
  }
  for (const record of records) {
    const builtin = builtinName(record.specifier);
    if (builtin !== null && OUTBOUND_MODULES.has(builtin)) {
      found.push({ file, line: record.line, what: `imports ${builtin}` });
    }
    if (CLIENT_PACKAGES.some((pattern) => pattern.test(record.specifier))) {
      found.push({ file, line: record.line, what: `imports the client package ${record.specifier}` });
    }
  }
  walk(parsed.program, (node, parent) => {
    if (node.type === 'Identifier' && GLOBAL_CLIENTS.has(String(node['name'])) && isReference(node, parent)) {
      found.push({ file, line: parsed.lineOf(node), what: `uses the global ${String(node['name'])}` });
    }
    if (node.type === 'MemberExpression') {
      const { object, property } = memberNames(node);
      if (object === 'globalThis' && property !== null && GLOBAL_CLIENTS.has(property)) {
        found.push({ file, line: parsed.lineOf(node), what: `uses globalThis.${property}` });
      }
    }
  });
  return found;
};

const OAUTH =
  /oauth|openid|authorization[-_ ]?endpoint|token[-_ ]?endpoint|authorization[-_ ]?server|protected[-_ ]?resource|resource[-_ ]?metadata|jwks|access[-_ ]?token|refresh[-_ ]?token|grant[-_ ]?type|client[-_ ]?credentials|code[-_ ]?challenge|bearer/i;

/**
 * No OAuth: no text, identifier or key naming OAuth, its metadata documents, its endpoints, its
 * grants or its tokens. Tokens are the host's `authorize` hook's business.
 */
export const noOAuth: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const { text, node } of texts(parsed)) {
    if (OAUTH.test(text)) {
      found.push({ file, line: parsed.lineOf(node), what: `writes the text ${JSON.stringify(text)}` });
    }
  }
  for (const { name, node } of names(parsed)) {
    if (OAUTH.test(name)) found.push({ file, line: parsed.lineOf(node), what: `names ${nameOf(node)}` });
  }
  return found;
};
