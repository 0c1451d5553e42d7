/**
 * Node's built-in alternative to a proxy: a `node:cluster` primary forking two workers that share
 * one port, each wired to the same PostgreSQL. Every request here opens a fresh connection (the
 * cluster balances connections, not requests), so consecutive calls land on different workers.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';
import { listen, MODERN, type ServerProcess, spawnServer } from './support/fleet.js';

let database: RunningPostgres;
let fleet: ServerProcess;

/** One tools/call on a connection of its own; answers the tool's text. */
function callFresh(port: number, name: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': name,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const message = JSON.parse(text) as { result?: { content?: { text?: string }[] } };
          resolve(message.result?.content?.[0]?.text ?? text);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  database = await startPostgres();
  fleet = await spawnServer('K', { PG_URL: database.url, PG_SCHEMA: 'clustered', WORKERS: '2' });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await database?.destroy();
});

describe('a node:cluster of two workers sharing PostgreSQL', () => {
  test('fresh connections are answered by both workers on one port', async () => {
    const seen = new Set<string>();
    for (let n = 0; n < 8 && seen.size < 2; n += 1)
      seen.add((await callFresh(fleet.port, 'whoami')).split(' ')[0] as string);
    expect([...seen].sort()).toEqual(['K-w0', 'K-w1']);
  });

  test('a listen stream on one worker hears changes announced on both', async () => {
    const stream = await listen(fleet.port);
    try {
      const announcers = new Set<string>();
      let announced = 0;
      while (announcers.size < 2 && announced < 8) {
        announcers.add((await callFresh(fleet.port, 'announce')).replace('announced by ', ''));
        announced += 1;
        await stream.until(
          () =>
            stream.events.filter((event) => event['method'] === 'notifications/tools/list_changed').length >=
            announced,
        );
      }
      expect([...announcers].sort()).toEqual(['K-w0', 'K-w1']);
    } finally {
      stream.close();
    }
  });
});
