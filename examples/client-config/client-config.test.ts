/**
 * Every client configuration snippet in examples/client-config/README.md works: each `command`
 * entry is spawned as the client would spawn it and answers `initialize` over stdio; each `url`
 * entry names the demo's MCP endpoint, and the demo answers there (served on a free port, since
 * another test may hold 3000).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startPrintingUrl } from '../support/mcp-url.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(fileURLToPath(new URL('./README.md', import.meta.url)), 'utf8');
const DEMO = `${ROOT}packages/demo/dist/main.js`;

interface Entry {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly type?: string;
  readonly url?: string;
}

const ENTRIES: Array<[string, Entry]> = [...README.matchAll(/^```json\n([\s\S]*?)^```/gm)].flatMap(
  (match) => {
    const config = JSON.parse(match[1] ?? '') as Record<string, Record<string, Entry>>;
    const servers = config['mcpServers'] ?? config['servers'] ?? {};
    return Object.entries(servers);
  },
);

function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('\n')) resolve(seen.slice(0, seen.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} without answering`)));
  });
}

describe('the client configuration snippets', () => {
  test('the README holds stdio and HTTP entries', () => {
    expect(ENTRIES.filter(([, entry]) => entry.command !== undefined).length).toBeGreaterThanOrEqual(3);
    expect(ENTRIES.filter(([, entry]) => entry.url !== undefined).length).toBeGreaterThanOrEqual(2);
  });

  test.each(ENTRIES.filter(([, entry]) => entry.command !== undefined))(
    '%s: the command answers initialize over stdio',
    async (_name, entry) => {
      expect(entry.command).toBe('node');
      const args = (entry.args ?? []).map((arg) => arg.replace('/path/to/palisade/', ROOT));
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
      const answer = firstLine(child);
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'config', version: '1' },
          },
        })}\n`,
      );
      const message = JSON.parse(await answer) as { result?: { serverInfo?: { name?: string } } };
      child.stdin.end();
      expect(message.result?.serverInfo?.name).toBe('palisade-demo');
    },
  );

  test.each(ENTRIES.filter(([, entry]) => entry.url !== undefined))(
    '%s: the URL is the demo endpoint, and the demo answers there',
    async (_name, entry) => {
      const url = new URL(entry.url ?? '');
      expect([url.protocol, url.hostname, url.port, url.pathname]).toEqual([
        'http:',
        '127.0.0.1',
        '3000',
        '/mcp',
      ]);
      const { child, url: served } = await startPrintingUrl([DEMO, '--port', '0']);
      try {
        expect(served.pathname).toBe(url.pathname);
        const response = await fetch(served, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        expect(response.status).toBe(200);
      } finally {
        child.kill();
      }
    },
  );
});
