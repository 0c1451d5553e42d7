/**
 * The fetch-handler example, started as its header says and called by the official SDK's HTTP
 * client over a real socket; a refusal the fetch handler owns (Host) still arrives by name.
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

let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  ({ child, url } = await startPrintingUrl(['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
  }));
});

afterAll(() => {
  child.kill();
});

describe('the fetch-handler (Hono) example', () => {
  test('the official SDK client calls a typed tool through Hono', async () => {
    const client = new Client({ name: 'example-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = (await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })) as {
      content: Array<{ text: string }>;
    };
    await client.close();
    expect(result.content[0]?.text).toBe('42');
  });

  test('arguments the schema refuses come back as a tool error, and the handler never runs', async () => {
    const client = new Client({ name: 'example-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = (await client.callTool({ name: 'add', arguments: { a: 2.5, b: 1 } })) as {
      isError?: boolean;
    };
    await client.close();
    expect(result.isError).toBe(true);
  });

  test('a Host that is not loopback is answered 421', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const req = request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: 'attacker.example',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'mcp-protocol-version': '2025-11-25',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(421);
  });
});
