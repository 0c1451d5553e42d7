/**
 * The demo, exactly as `npm start -- --stdio` runs it (the built `dist/main.js`), driven over its
 * real stdio pipes by the official TypeScript SDK clients: 1.x, and 2.x in both eras.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { type AnyClient, exerciseEverything } from './exercise.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SERVER = { command: process.execPath, args: [DEMO, '--stdio'], stderr: 'pipe' as const };

describe('the demo over stdio with the official SDK clients', () => {
  test('the 1.x client initializes on 2025-11-25 and lists, calls, reads and gets everything', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new StdioTransportV1(SERVER));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'palisade-demo' });
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in its default legacy mode negotiates 2025-11-25 and exercises everything', async () => {
    const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' });
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in auto mode discovers 2026-07-28 and exercises everything statelessly', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client pinned to 2026-07-28 connects', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const result = await client.callTool({ name: 'echo', arguments: { text: 'pinned' } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'pinned' }] });
    } finally {
      await client.close();
    }
  });
});
