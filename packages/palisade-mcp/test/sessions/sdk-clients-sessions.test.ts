/**
 * The official SDK clients, 1.x and 2.x, each pinned in turn to 2025-11-25, 2025-06-18 and
 * 2025-03-26, against the node handler with sessions on over a real socket, and over real stdio pipes to a
 * spawned server: each negotiates its revision (and over HTTP keeps the session id it was issued), lists and calls, answers a sampling and an
 * elicitation request a tool sends it, hears a `list_changed` on its GET stream, and cancels a
 * call whose handler then sees its signal fire. 2.x is pinned by `supportedProtocolVersions`;
 * 1.x always offers its latest, so its transport rewrites the `initialize` it sends.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { bundledFixture } from '../support/fixture-bundles.js';
import { pinnedV1 } from '../support/sdk-pinned.js';
import { nodeEndpoint } from '../support/session-peer.js';
import { newProbe, sessionServer } from './session-server.js';

const PINNED = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };

/** What both SDK generations offer the test, once connected. */
interface Peer {
  readonly sessionId: () => string | undefined;
  /** stdio: the spawned server's pid and stderr. */
  readonly pid: () => number | null;
  readonly stderr: () => NodeJS.ReadableStream | null;
  readonly negotiated: () => unknown;
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  listTools(): Promise<string[]>;
  /** Settles at the next `notifications/tools/list_changed` the client hears. */
  nextListChanged(): Promise<void>;
  close(): Promise<void>;
}

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

/** What the server side saw: handlers started and aborted, and a way to announce a list change. */
interface Side {
  started(tag: string): Promise<void>;
  aborted(): readonly string[];
  announce(): void;
  close(): Promise<void>;
}

/** How a client reaches the server: a URL (sessions on) or a spawned stdio server. */
type Target = { readonly url: URL } | { readonly stdio: { command: string; args: string[] } };

interface Started {
  readonly side: Side;
  readonly target: Target;
}

async function overHttp(): Promise<Started> {
  const probe = newProbe();
  const server = sessionServer(probe);
  const endpoint = await nodeEndpoint(server);
  return {
    target: { url: new URL(endpoint.url) },
    side: {
      started: (tag) => probe.started(tag),
      aborted: () => probe.aborted,
      announce: () => server.notifyListChanged('tools'),
      close: () => endpoint.close(),
    },
  };
}

/** The stdio server is spawned by the client's transport; its pid and stderr are read after connect. */
function overStdio(): {
  target: Target;
  watch: (pid: number | null, stderr: NodeJS.ReadableStream | null) => Side;
} {
  return {
    target: { stdio: { command: process.execPath, args: [bundledFixture('serve-session-stdio')] } },
    watch: (pid, stderr) => {
      const lines: string[] = [];
      const waiting: Array<() => void> = [];
      stderr?.setEncoding('utf8');
      stderr?.on('data', (text: string) => {
        lines.push(...text.split('\n').filter((line) => line !== ''));
        for (const wake of waiting.splice(0)) wake();
      });
      return {
        started: async (tag) => {
          while (!lines.includes(`started ${tag}`))
            await new Promise<void>((resolve) => waiting.push(resolve));
        },
        aborted: () => lines.filter((line) => line.startsWith('aborted ')).map((line) => line.slice(8)),
        announce: () => {
          if (pid !== null) process.kill(pid, 'SIGUSR2');
        },
        close: async () => {},
      };
    },
  };
}

async function connectV1(target: Target, revision: string): Promise<Peer> {
  const transport = pinnedV1(
    'url' in target ? new TransportV1(target.url) : new StdioTransportV1({ ...target.stdio, stderr: 'pipe' }),
    revision,
  );
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
    sessionId: () => ('sessionId' in transport ? transport.sessionId : undefined),
    pid: () => ('pid' in transport ? transport.pid : null),
    stderr: () => ('stderr' in transport ? (transport.stderr as NodeJS.ReadableStream | null) : null),
    negotiated: transport.negotiated,
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, undefined, signal === undefined ? {} : { signal }),
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    nextListChanged: () => changed.next(),
    close: () => client.close(),
  };
}

async function connectV2(target: Target, revision: string): Promise<Peer> {
  const transport =
    'url' in target ? new TransportV2(target.url) : new StdioTransportV2({ ...target.stdio, stderr: 'pipe' });
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
    sessionId: () => ('sessionId' in transport ? transport.sessionId : undefined),
    pid: () => ('pid' in transport ? transport.pid : null),
    stderr: () => ('stderr' in transport ? (transport.stderr as NodeJS.ReadableStream | null) : null),
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

const TRANSPORTS = ['HTTP', 'stdio'] as const;

let opened: { peer: Peer; side: Side } | undefined;
afterEach(async () => {
  await opened?.peer.close();
  await opened?.side.close();
  opened = undefined;
});

async function start(
  transport: (typeof TRANSPORTS)[number],
  connect: typeof connectV1,
  revision: string,
): Promise<{ peer: Peer; side: Side }> {
  if (transport === 'HTTP') {
    const { side, target } = await overHttp();
    opened = { peer: await connect(target, revision), side };
  } else {
    const { target, watch } = overStdio();
    const peer = await connect(target, revision);
    opened = { peer, side: watch(peer.pid(), peer.stderr()) };
  }
  return opened;
}

function textOf(result: Record<string, unknown>): string {
  const [first] = result['content'] as Array<{ text?: string }>;
  return String(first?.text);
}

describe.each(CLIENTS)('the official %s client', (_name, connect) => {
  describe.each(TRANSPORTS)('over %s', (transport) => {
    describe.each(PINNED)('pinned to %s', (revision) => {
      test('negotiates it, lists and calls', async () => {
        const { peer } = await start(transport, connect, revision);
        expect(peer.negotiated()).toBe(revision);
        if (transport === 'HTTP') expect(peer.sessionId()).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(await peer.listTools()).toContain('echo');
        expect(textOf(await peer.call('echo', { text: 'hi' }))).toBe('hi');
      });

      test('answers a sampling request a tool sends it, and the tool answers with the reply', async () => {
        const { peer } = await start(transport, connect, revision);
        const result = await peer.call('ask', { tag: 'sdk' });
        expect(textOf(result)).toBe('sampled: hello from the client (state {"step":1})');
      });

      test('answers elicitation and roots requests over two rounds, where its revision defines elicitation', async () => {
        const { peer } = await start(transport, connect, revision);
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
      });

      test('hears a tools list_changed', async () => {
        const { peer, side } = await start(transport, connect, revision);
        // Over HTTP the GET stream opens after initialized: announce until it is heard.
        const heard = peer.nextListChanged();
        await expect
          .poll(() => {
            side.announce();
            return Promise.race([
              heard.then(() => true),
              new Promise((resolve) => setTimeout(() => resolve(false), 50)),
            ]);
          })
          .toBe(true);
      });

      test("cancels a call, and the handler's signal fires", async () => {
        const { peer, side } = await start(transport, connect, revision);
        const controller = new AbortController();
        const call = peer.call('hold', { tag: 'cancel-me' }, controller.signal);
        await side.started('cancel-me');
        controller.abort('the user gave up');
        await expect(call).rejects.toThrow();
        await expect.poll(() => side.aborted()).toEqual(['cancel-me']);
        // The connection serves on.
        expect(textOf(await peer.call('echo', { text: 'after' }))).toBe('after');
      });
    });
  });
});
