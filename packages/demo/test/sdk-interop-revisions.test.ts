/**
 * The official TypeScript SDK clients pinned to the older revisions, against the demo exactly as
 * `npm start` runs it (the built `dist/main.js`), over a real HTTP socket and over real stdio
 * pipes: each negotiates the revision it was pinned to and walks everything the demo offers,
 * shaped to that revision. 2.x is pinned by `supportedProtocolVersions`; 1.x has no such option
 * (it always offers its latest, 2025-11-25), so its transport rewrites the one `initialize` it
 * sends to offer the pinned revision, and records the version the server answers with.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { pinnedV1 } from '../../palisade-mcp/test/support/sdk-pinned.js';
import { type AnyClient, exerciseEverything } from './exercise.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const STDIO = { command: process.execPath, args: [DEMO, '--stdio'], stderr: 'pipe' as const };
const PINNED = ['2025-06-18', '2025-03-26'] as const;
/** A handshake revision over stateless HTTP: the demo has no way to ask the client. */
const STATELESS = { canAsk: false };

const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

async function startHttpDemo(flags: readonly string[] = []): Promise<URL> {
  const child = spawn(process.execPath, [DEMO, '--port', '0', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  return new Promise<URL>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const found = /at (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before serving: ${stderr}`)));
  });
}

describe.each(PINNED)('the official SDK clients pinned to %s against the demo', (revision) => {
  test('the 1.x client over HTTP negotiates it, lists and calls everything', async () => {
    const url = await startHttpDemo();
    const transport = pinnedV1(new HttpTransportV1(url), revision);
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(transport.negotiated()).toBe(revision);
      // Every later POST names it: the transport carries what the client accepted.
      expect(transport.protocolVersion).toBe(revision);
      await exerciseEverything(client as unknown as AnyClient, revision, STATELESS);
    } finally {
      await client.close();
    }
  });

  test('the 1.x client over stdio negotiates it, lists and calls everything', async () => {
    const transport = pinnedV1(new StdioTransportV1(STDIO), revision);
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(transport.negotiated()).toBe(revision);
      await exerciseEverything(client as unknown as AnyClient, revision);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client over HTTP negotiates it, lists and calls everything', async () => {
    const url = await startHttpDemo();
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { supportedProtocolVersions: [revision] },
    );
    await client.connect(new HttpTransportV2(url));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      await exerciseEverything(client as unknown as AnyClient, revision, STATELESS);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client over stdio negotiates it, lists and calls everything', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { supportedProtocolVersions: [revision] },
    );
    await client.connect(new StdioTransportV2(STDIO));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      await exerciseEverything(client as unknown as AnyClient, revision);
    } finally {
      await client.close();
    }
  });
});

describe.each(['2025-11-25', ...PINNED])(
  'the official SDK clients pinned to %s against the demo with --sessions',
  (revision) => {
    test('the 1.x client over HTTP is issued a session, lists and calls everything on it', async () => {
      const url = await startHttpDemo(['--sessions']);
      const transport = pinnedV1(new HttpTransportV1(url), revision);
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect(transport.negotiated()).toBe(revision);
        expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
        await exerciseEverything(client as unknown as AnyClient, revision);
      } finally {
        await client.close();
      }
    });

    test('the 2.x client over HTTP is issued a session, lists and calls everything on it', async () => {
      const url = await startHttpDemo(['--sessions']);
      const transport = new HttpTransportV2(url);
      const client = new ClientV2(
        { name: 'sdk-v2', version: '2.0.0' },
        { supportedProtocolVersions: [revision] },
      );
      await client.connect(transport);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(revision);
        expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
        await exerciseEverything(client as unknown as AnyClient, revision);
      } finally {
        await client.close();
      }
    });
  },
);
