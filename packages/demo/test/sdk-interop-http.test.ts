/**
 * The demo exactly as `npm start` runs it (the built `dist/main.js`, serving HTTP), on a port the
 * system picks, driven over real sockets by the official TypeScript SDK clients: 1.x, and 2.x in
 * both eras. Each test starts its own demo process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { type AnyClient, exerciseEverything } from './exercise.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** A handshake revision over stateless HTTP: the demo has no way to ask the client. */
const STATELESS = { canAsk: false };

interface Demo {
  readonly url: URL;
  readonly child: ChildProcess;
}

const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** Starts the demo on port 0 and reads the URL it prints to stderr. */
async function startDemo(...args: string[]): Promise<Demo> {
  const child = spawn(process.execPath, [DEMO, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr += text;
      const found = /at (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before serving: ${stderr}`)));
  });
  return { url, child };
}

describe('the demo over HTTP with the official SDK clients', () => {
  test('the 1.x client initializes statelessly on 2025-11-25 and exercises everything', {
    tags: ['threat-model'],
  }, async () => {
    const demo = await startDemo();
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new TransportV1(demo.url));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'palisade-demo' });
      await exerciseEverything(client as unknown as AnyClient, '2025-11-25', STATELESS);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in its default legacy mode negotiates 2025-11-25 and exercises everything', {
    tags: ['threat-model'],
  }, async () => {
    const demo = await startDemo();
    const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' });
    await client.connect(new TransportV2(demo.url));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await exerciseEverything(client as unknown as AnyClient, '2025-11-25', STATELESS);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in auto mode discovers 2026-07-28 and exercises everything', {
    tags: ['threat-model'],
  }, async () => {
    const demo = await startDemo();
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new TransportV2(demo.url));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });
});

describe('the demo command line', () => {
  test('a browser origin not passed with --allowed-origin is answered 403, and one passed is served', {
    tags: ['threat-model'],
  }, async () => {
    const demo = await startDemo('--allowed-origin', 'http://app.example');
    const post = (origin: string) =>
      fetch(demo.url, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
    expect((await post('http://evil.example')).status).toBe(403);
    expect((await post('http://app.example')).status).toBe(200);
  });

  test('SIGTERM closes the server and the process exits 0', async () => {
    const demo = await startDemo();
    demo.child.kill('SIGTERM');
    const [code] = await once(demo.child, 'exit');
    expect(code).toBe(0);
  });

  test('a port that is not a number exits 2 with the usage', async () => {
    const child = spawn(process.execPath, [DEMO, '--port', 'eighty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be an integer from 0 to 65535');
    expect(stderr).toContain('usage: palisade-demo');
  });
});
