/**
 * The Express example, started as its header says and called by the official SDK's HTTP client
 * with and without the bearer token, over a real socket.
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPrintingUrl } from '../support/mcp-url.ts';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'correct horse battery staple';

let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  ({ child, url } = await startPrintingUrl(['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, MCP_TOKEN: TOKEN, PORT: '0' },
  }));
});

afterAll(() => {
  child.kill();
});

function post(headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

describe('the Express bearer-token example', () => {
  test('the official SDK client with the token calls a tool, and ctx.auth is what authorize returned', async () => {
    const client = new Client({ name: 'example-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as {
      content: Array<{ text: string }>;
    };
    await client.close();
    expect(result.content[0]?.text).toBe('{"subject":"token-holder"}');
  });

  test('a request without a token is answered 401 with WWW-Authenticate', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
  });

  test('a request with a wrong token is answered 401', async () => {
    expect((await post({ authorization: 'Bearer correct horse battery stapler' })).status).toBe(401);
  });

  test('the route beside /mcp is served', async () => {
    const response = await fetch(new URL('/health', url));
    expect(await response.json()).toEqual({ ok: true });
  });

  test('a Host that is not loopback is answered 421 on every route, not only /mcp', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: url.port, path: '/health', headers: { host: 'attacker.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });
});
