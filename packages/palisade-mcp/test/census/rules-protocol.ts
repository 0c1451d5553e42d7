/**
 * Censuses over what the package puts on the wire: it answers and notifies, and never asks the
 * client anything (2026-07-28 removed server-to-client requests; on 2025-11-25 they need a
 * session this package does not keep).
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
 * No server-to-client request: no object literal carries both `method` and `id`, the two members
 * that make a JSON-RPC message a request. Responses carry `id` without `method`; notifications
 * `method` without `id`.
 */
export const noServerRequest: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  walk(parsed.program, (node: AstNode, parent: AstNode | null) => {
    if (node.type !== 'ObjectExpression' || isClassifiedIncoming(file, parent)) return;
    const keys = new Set(children(node, 'properties').map((property) => nameOf(child(property, 'key'))));
    if (keys.has('method') && keys.has('id')) {
      found.push({
        file,
        line: parsed.lineOf(node),
        what: 'builds a request (an object with method and id)',
      });
    }
  });
  return found;
};
