/**
 * The official SDK clients, 1.x and 2.x, each pinned in turn to 2025-11-25, 2025-06-18 and
 * 2025-03-26, against the node handler with sessions on over a real socket: each negotiates its
 * revision and keeps the session id it was issued, lists and calls, answers a sampling and an
 * elicitation request a tool sends it, hears a `list_changed` on its GET stream, and cancels a
 * call whose handler then sees its signal fire. 2.x is pinned by `supportedProtocolVersions`;
 * 1.x always offers its latest, so its transport rewrites the `initialize` it sends.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Server } from '../../src/index.js';
import { type Endpoint, nodeEndpoint } from '../support/session-peer.js';
import { newProbe, type Probe, sessionServer } from './session-server.js';

const PINNED = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };

/** What both SDK generations offer the test, once connected. */
interface Peer {
  readonly sessionId: () => string | undefined;
  readonly negotiated: () => string | undefined;
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  listTools(): Promise<string[]>;
  /** Settles at the next `notifications/tools/list_changed` the client hears. */
  nextListChanged(): Promise<void>;
  close(): Promise<void>;
}

type Message = Parameters<Transport['send']>[0];

const SAMPLED = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'hello from the client' },
  model: 'test-model',
};

function listChangedWaiter(): { next(): Promise<void>; fire(): void } {
  let waiting: (() => void) | undefined;
  let fired = 0;
  return {
    next: () => {
      if (fired === 0)
        return new Promise<void>((resolve) => {
          waiting = resolve;
        });
      fired -= 1;
      return Promise.resolve();
    },
    fire: () => {
      if (waiting === undefined) fired += 1;
      else {
        const resolve = waiting;
        waiting = undefined;
        resolve();
      }
    },
  };
}

async function connectV1(url: URL, revision: string): Promise<Peer> {
  const transport = new TransportV1(url);
  let negotiated: string | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message: Message, options) => {
    const pinned =
      'method' in message && message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: revision } }
        : message;
    return send(pinned as Message, options);
  };
  const start = transport.start.bind(transport);
  transport.start = () => {
    const deliver = transport.onmessage;
    transport.onmessage = (message: Parameters<NonNullable<Transport['onmessage']>>[0]) => {
      if ('result' in message && message.id === 0)
        negotiated = (message.result as { protocolVersion?: string }).protocolVersion;
      deliver?.(message);
    };
    return start();
  };
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: CAPABILITIES });
  client.setRequestHandler(CreateMessageRequestSchema, () => SAMPLED);
  client.setRequestHandler(ElicitRequestSchema, (request) => ({
    action: 'accept',
    content: { [request.params.message === 'Name?' ? 'n' : 'c']: 'from v1' },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///v1' }] }));
  const changed = listChangedWaiter();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.fire());
  await client.connect(transport);
  return {
    sessionId: () => transport.sessionId,
    negotiated: () => negotiated,
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, undefined, signal === undefined ? {} : { signal }),
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    nextListChanged: () => changed.next(),
    close: () => client.close(),
  };
}

async function connectV2(url: URL, revision: string): Promise<Peer> {
  const transport = new TransportV2(url);
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    { capabilities: CAPABILITIES, supportedProtocolVersions: [revision] },
  );
  client.setRequestHandler('sampling/createMessage', () => SAMPLED);
  client.setRequestHandler('elicitation/create', (request) => ({
    action: 'accept' as const,
    content: { [request.params.message === 'Name?' ? 'n' : 'c']: 'from v2' },
  }));
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///v2' }] }));
  const changed = listChangedWaiter();
  client.setNotificationHandler('notifications/tools/list_changed', () => changed.fire());
  await client.connect(transport);
  return {
    sessionId: () => transport.sessionId,
    negotiated: () => client.getNegotiatedProtocolVersion(),
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, signal === undefined ? {} : { signal }) as Promise<
        Record<string, unknown>
      >,
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    nextListChanged: () => changed.next(),
    close: () => client.close(),
  };
}

const CLIENTS = [
  ['1.x', connectV1],
  ['2.x', connectV2],
] as const;

let probe: Probe;
let server: Server;
let endpoint: Endpoint;
let url: URL;
beforeEach(async () => {
  probe = newProbe();
  server = sessionServer(probe);
  endpoint = await nodeEndpoint(server);
  url = new URL(endpoint.url);
});
afterEach(async () => {
  await endpoint.close();
});

function textOf(result: Record<string, unknown>): string {
  const [first] = result['content'] as Array<{ text?: string }>;
  return String(first?.text);
}

describe.each(CLIENTS)('the official %s client with sessions on', (_name, connect) => {
  describe.each(PINNED)('pinned to %s', (revision) => {
    test('negotiates it, keeps the session id it was issued, lists and calls', async () => {
      const peer = await connect(url, revision);
      try {
        expect(peer.negotiated()).toBe(revision);
        expect(peer.sessionId()).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(await peer.listTools()).toContain('echo');
        expect(textOf(await peer.call('echo', { text: 'hi' }))).toBe('hi');
      } finally {
        await peer.close();
      }
    });

    test('answers a sampling request a tool sends it, and the tool answers with the reply', async () => {
      const peer = await connect(url, revision);
      try {
        const result = await peer.call('ask', { tag: 'sdk' });
        expect(textOf(result)).toBe('sampled: hello from the client (state {"step":1})');
        expect(probe.inputErrors).toEqual([]);
      } finally {
        await peer.close();
      }
    });

    test('answers elicitation and roots requests over two rounds, where its revision defines elicitation', async () => {
      const peer = await connect(url, revision);
      try {
        if (revision === '2025-03-26') {
          // Elicitation is not in 2025-03-26: the client is never sent one, the call is -32021.
          await expect(peer.call('ask_twice', {})).rejects.toThrow(
            /-32021|Missing required client capability/,
          );
          return;
        }
        const result = await peer.call('ask_twice', {});
        expect(textOf(result)).toMatch(
          /^done: \{"action":"accept","content":\{"c":"from v[12]"\}\} after \{"round":2\}$/,
        );
        const first = probe.rounds.find((round) => round.responses !== undefined)?.responses as Record<
          string,
          unknown
        >;
        expect(first['roots']).toEqual({ roots: [{ uri: expect.stringMatching(/^file:\/\/\/v[12]$/) }] });
      } finally {
        await peer.close();
      }
    });

    test('hears a tools list_changed on its GET stream', async () => {
      const peer = await connect(url, revision);
      try {
        // The GET stream opens after initialized; a round trip makes sure it is there.
        await peer.listTools();
        const heard = peer.nextListChanged();
        await expect
          .poll(() => {
            server.notifyListChanged('tools');
            return Promise.race([heard.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))]);
          })
          .toBe(true);
      } finally {
        await peer.close();
      }
    });

    test("cancels a call, and the handler's signal fires", async () => {
      const peer = await connect(url, revision);
      try {
        const controller = new AbortController();
        const call = peer.call('hold', { tag: 'cancel-me' }, controller.signal);
        await probe.started('cancel-me');
        controller.abort('the user gave up');
        await expect(call).rejects.toThrow();
        await expect.poll(() => probe.aborted).toEqual(['cancel-me']);
        // The session serves on.
        expect(textOf(await peer.call('echo', { text: 'after' }))).toBe('after');
      } finally {
        await peer.close();
      }
    });
  });
});
