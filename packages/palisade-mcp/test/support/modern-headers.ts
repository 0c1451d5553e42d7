/**
 * Raw header lists as `indexHeaders` takes them (name, value, name, value ...), for the tests that
 * hold a 2026-07-28 request's MCP headers to its body.
 */
import { Buffer } from 'node:buffer';

/** The headers a 2026-07-28 request of `method` carries, `Mcp-Name` when `name` is given, then `more`. */
export function modernHeaderList(method: string, name?: string, ...more: readonly string[]): string[] {
  const named = name === undefined ? [] : ['Mcp-Name', name];
  return ['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', method, ...named, ...more];
}

/** `=?base64?<text as base64>?=`: how a client sends a header value it cannot send as is. */
export function sentinel(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
