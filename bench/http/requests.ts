/**
 * Request bytes as a client of each revision sends them: 2026-07-28 with `_meta` and the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers that must match it (as
 * `modernRequest` in the test peers builds them), 2025-11-25 with the version header only.
 */

export type RevisionName = '2026-07-28' | '2025-11-25';

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

export const ECHO_TEXT = 'The quick brown fox jumps over the lazy dog.';

/** The JSON-RPC body and the MCP headers of one request. */
export function mcpRequest(
  revision: RevisionName,
  method: string,
  params: Record<string, unknown>,
): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': revision };
  if (revision === '2025-11-25') {
    return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers };
  }
  headers['Mcp-Method'] = method;
  if (typeof params['name'] === 'string') headers['Mcp-Name'] = params['name'];
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } });
  return { body, headers };
}

export function echoCall(revision: RevisionName): { body: string; headers: Record<string, string> } {
  return mcpRequest(revision, 'tools/call', { name: 'echo', arguments: { text: ECHO_TEXT } });
}

export function toolsList(revision: RevisionName): { body: string; headers: Record<string, string> } {
  return mcpRequest(revision, 'tools/list', {});
}

/** A `hold` call padded to exactly `size` bytes of body. */
export function holdCall(size: number): { body: string; headers: Record<string, string> } {
  const empty = mcpRequest('2026-07-28', 'tools/call', { name: 'hold', arguments: { pad: '' } });
  return mcpRequest('2026-07-28', 'tools/call', {
    name: 'hold',
    arguments: { pad: 'x'.repeat(size - Buffer.byteLength(empty.body)) },
  });
}

/** The request head (through the blank line) for a POST of `bodyBytes` bytes. */
export function head(port: number, bodyBytes: number, headers: Record<string, string>): string {
  const lines = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${bodyBytes}`,
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Head and body as one buffer, built once and written as is for every request. */
export function requestBytes(
  port: number,
  request: { body: string; headers: Record<string, string> },
): Buffer {
  const body = Buffer.from(request.body, 'utf8');
  return Buffer.concat([Buffer.from(head(port, body.length, request.headers), 'latin1'), body]);
}
