import { describe, expect, it } from 'vitest';
import { type McpHeaderField, mcpRequestHeaders } from '../../src/wire/index.js';

const FIELDS: readonly McpHeaderField[] = [
  { header: 'Region', path: ['region'], type: 'string' },
  { header: 'Target-Id', path: ['target', 'id'], type: 'integer' },
  { header: 'Dry-Run', path: ['dryRun'], type: 'boolean' },
];

describe('the MCP headers a client writes for a request', () => {
  it('a tools/call carries the version, the method, the tool name and each declared argument', () => {
    const headers = mcpRequestHeaders(
      {
        method: 'tools/call',
        params: { name: 'deploy', arguments: { region: 'eu-west-1', target: { id: 42 }, dryRun: false } },
      },
      '2026-07-28',
      FIELDS,
    );
    expect(headers).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'deploy',
      'Mcp-Param-Region': 'eu-west-1',
      'Mcp-Param-Target-Id': '42',
      'Mcp-Param-Dry-Run': 'false',
    });
  });

  it('a name or argument that is not plain visible ASCII goes out base64-encoded', () => {
    const headers = mcpRequestHeaders(
      { method: 'resources/read', params: { uri: 'file:///tmp/Zürich.txt' } },
      '2026-07-28',
    );
    expect(headers['Mcp-Name']).toBe(
      `=?base64?${Buffer.from('file:///tmp/Zürich.txt').toString('base64')}?=`,
    );
  });

  it('an argument that is absent, null or not of its field type gets no header', () => {
    const headers = mcpRequestHeaders(
      { method: 'tools/call', params: { name: 'deploy', arguments: { region: null, target: { id: 4.5 } } } },
      '2026-07-28',
      FIELDS,
    );
    expect(Object.keys(headers)).toEqual(['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name']);
  });

  it('a method without Mcp-Name gets the version and method only', () => {
    expect(mcpRequestHeaders({ method: 'tools/list' }, '2026-07-28')).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
  });

  it('a task request names its task in Mcp-Name', () => {
    expect(mcpRequestHeaders({ method: 'tasks/get', params: { taskId: 't-1' } }, '2026-07-28')).toMatchObject(
      {
        'Mcp-Name': 't-1',
      },
    );
  });

  it('an inherited member is never read as the name or an argument', () => {
    const params = Object.create({ name: 'inherited', arguments: { region: 'x' } }) as Record<
      string,
      unknown
    >;
    expect(mcpRequestHeaders({ method: 'tools/call', params }, '2026-07-28', FIELDS)).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
    });
  });
});
