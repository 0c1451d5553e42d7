/**
 * Censuses over what the package puts on the wire: it answers and notifies, and asks the client
 * something in one place only: on an HTTP session (opt-in), the requests a handler's
 * `ctx.inputRequired` names (2026-07-28 removed server-to-client requests; on the handshake
 * revisions they need a session, which exists only when the host passes `sessions`).
 */
import { type AstNode, type Census, child, children, nameOf, parse, type Violation, walk } from './source.js';

/**
 * The one place a request-shaped object is built: `classify` in wire/jsonrpc.ts re-shapes an
 * incoming request as `{ kind: 'request', message: { jsonrpc, id, method } }` for the core.
 */
const CLASSIFIER_FILE = 'wire/jsonrpc.ts';

function isClassifiedIncoming(file: string, parent: AstNode | null): boolean {
  return (
    file === CLASSIFIER_FILE && parent?.type === 'Property' && nameOf(child(parent, 'key')) === 'message'
  );
}

/**
 * The one file that builds a request to the client (a session's `sampling/createMessage`,
 * `elicitation/create`, `roots/list`), and only with the method the handler's input request names
 * (`request.method`, which `ctx.inputRequired` checked against those three), never a literal.
 */
export const CLIENT_REQUEST_FILE = 'sessions/client-request.ts';

function isInputRequestMethod(file: string, node: AstNode): boolean {
  if (file !== CLIENT_REQUEST_FILE) return false;
  const method = children(node, 'properties').find((property) => nameOf(child(property, 'key')) === 'method');
  const value = method === undefined ? null : child(method, 'value');
  return value?.type === 'MemberExpression' && nameOf(child(value, 'property')) === 'method';
}

/**
 * No server-to-client request but a session's input requests: no object literal carries both
 * `method` and `id`, the two members that make a JSON-RPC message a request, except in
 * CLIENT_REQUEST_FILE with its method taken from the input request. Responses carry `id` without
 * `method`; notifications `method` without `id`.
 */
export const noServerRequest: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  walk(parsed.program, (node: AstNode, parent: AstNode | null) => {
    if (node.type !== 'ObjectExpression' || isClassifiedIncoming(file, parent)) return;
    const keys = new Set(children(node, 'properties').map((property) => nameOf(child(property, 'key'))));
    if (keys.has('method') && keys.has('id') && !isInputRequestMethod(file, node)) {
      found.push({
        file,
        line: parsed.lineOf(node),
        what: 'builds a request (an object with method and id)',
      });
    }
  });
  return found;
};
