/**
 * The HTTP status of a core answer (spec §4.5, spec-notes item 13): an envelope error is the
 * client's fault (400, and 404 for an unknown method); a method's own error, a host fault
 * included, is still a delivered JSON-RPC answer (200). The three codes the spec pins to 400 stay
 * 400. A host fault was once 500: the official SDK 2.x client reads any 5xx on a POST as a failed
 * transport, and the MCP Inspector's mcpdo, built on it, once reported a dropped connection for a
 * command in flight beside one answered 500 (packages/demo/test/inspector-cli.test.ts).
 */
import type { AnswerStage } from '../protocol/core.js';
import type { JsonRpcResponse } from '../protocol/jsonrpc.js';

const ALWAYS_400 = new Set([-32020, -32021, -32022]);

export function statusOf(response: JsonRpcResponse | undefined, stage: AnswerStage): number {
  if (response === undefined) return 202;
  if (!('error' in response)) return 200;
  const code = response.error.code;
  if (ALWAYS_400.has(code)) return 400;
  if (stage === 'envelope') return code === -32601 ? 404 : 400;
  return 200;
}
