/**
 * The demo exactly as `npm start` runs it (the built `dist/main.js`), over HTTP with `--sessions`
 * on a real socket and over real stdio pipes, driven by the official SDK clients, 1.x and 2.x,
 * each pinned in turn to 2025-11-25, 2025-06-18 and 2025-03-26: the client answers the sampling
 * request `ask_model` sends it and the elicitation request `ask_user` sends it (elicitation only
 * where the revision defines it), hears the `list_changed` that `announce_tools_changed` makes,
 * and cancels a `wait`, whose handler then says on the demo's stderr that its signal fired. 2.x is
 * pinned by `supportedProtocolVersions`; 1.x always offers its latest, so its transport rewrites
 * the `initialize` it sends. The same two asking tools, unchanged, serve a 2.x client on
 * 2026-07-28 with the demo stateless: the client answers in its retry, and the demo needs no
 * `requestState` sealer, its tools keeping no state between rounds.
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
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { pinnedV1 } from '../../palisade-mcp/test/support/sdk-pinned.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const STDIO = { command: process.execPath, args: [DEMO, '--stdio'], stderr: 'pipe' as const };
const PINNED = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const CAPABILITIES = { sampling: {}, elicitation: {} };

/** What the client's sampling handler answers, and its elicitation handler. */
const COMPLETION = 'Paris, the client says.';
const USER_ANSWER = 'Ada';

/** What the client's handlers were asked, in order. */
interface Asked {
  readonly sampling: string[];
  readonly elicitation: string[];
}

/** What both SDK generations offer a test, once connected. */
interface Peer {
  readonly negotiated: () => unknown;
  readonly asked: Asked;
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; onprogress?: () => void },
  ): Promise<Record<string, unknown>>;
  /** How many `notifications/tools/list_changed` the client has heard. */
  heardListChanged(): number;
  /** stdio only: the demo's stderr, which the client's transport pipes. */
  stderr(): NodeJS.ReadableStream | null;
  close(): Promise<void>;
}

/** How a client reaches the demo: its URL (sessions on), or stdio, the client spawning it. */
type Target = { readonly url: URL } | { readonly stdio: true };

function handlers(asked: Asked, version: string) {
  return {
    sample: (question: unknown) => {
      asked.sampling.push(String(question));
      return {
        role: 'assistant' as const,
        content: { type: 'text' as const, text: COMPLETION },
        model: `sdk-${version}-model`,
      };
    },
    elicit: (message: string) => {
      asked.elicitation.push(message);
      return { action: 'accept' as const, content: { answer: USER_ANSWER } };
    },
  };
}

/** The text of the sampling request's one message. */
function questionOf(params: { messages: Array<{ content: unknown }> }): unknown {
  const content = params.messages[0]?.content as { text?: unknown } | undefined;
  return content?.text;
}

async function connectV1(target: Target, revision: string): Promise<Peer> {
  const transport = pinnedV1(
    'url' in target ? new HttpTransportV1(target.url) : new StdioTransportV1(STDIO),
    revision,
  );
  const asked: Asked = { sampling: [], elicitation: [] };
  const answer = handlers(asked, 'v1');
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: CAPABILITIES });
  client.setRequestHandler(CreateMessageRequestSchema, (request) =>
    answer.sample(questionOf(request.params)),
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => answer.elicit(request.params.message));
  let heard = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    heard += 1;
  });
  await client.connect(transport);
  return {
    negotiated: transport.negotiated,
    asked,
    call: (name, args, options = {}) => client.callTool({ name, arguments: args }, undefined, options),
    heardListChanged: () => heard,
    stderr: () => ('stderr' in transport ? (transport.stderr as NodeJS.ReadableStream | null) : null),
    close: () => client.close(),
  };
}

async function connectV2(target: Target, revision: string): Promise<Peer> {
  const transport = 'url' in target ? new HttpTransportV2(target.url) : new StdioTransportV2(STDIO);
  const asked: Asked = { sampling: [], elicitation: [] };
  const answer = handlers(asked, 'v2');
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    { capabilities: CAPABILITIES, supportedProtocolVersions: [revision] },
  );
  client.setRequestHandler('sampling/createMessage', (request) => answer.sample(questionOf(request.params)));
  client.setRequestHandler('elicitation/create', (request) => answer.elicit(request.params.message));
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    heard += 1;
  });
  await client.connect(transport);
  return {
    negotiated: () => client.getNegotiatedProtocolVersion(),
    asked,
    call: (name, args, options = {}) =>
      client.callTool({ name, arguments: args }, options) as Promise<Record<string, unknown>>,
    heardListChanged: () => heard,
    stderr: () => ('stderr' in transport ? (transport.stderr as NodeJS.ReadableStream | null) : null),
    close: () => client.close(),
  };
}

/** The lines the demo has written to its stderr so far. */
interface DemoLog {
  readonly lines: string[];
}

function collect(stream: NodeJS.ReadableStream, log: DemoLog): void {
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    log.lines.push(...text.split('\n').filter((line) => line !== ''));
  });
}

const children: ChildProcess[] = [];
let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** The demo over HTTP (by default with sessions on), port 0; its stderr collected into `log` from the start. */
async function startHttpDemo(log: DemoLog, flags: readonly string[] = ['--sessions']): Promise<URL> {
  const child = spawn(process.execPath, [DEMO, '--port', '0', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  collect(child.stderr, log);
  return new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', () => {
      const found = /at (http:\/\/\S+\/mcp)\n/.exec(`${log.lines.join('\n')}\n`);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`the demo exited (${code}) before serving: ${log.lines.join('\n')}`)),
    );
  });
}

const CLIENTS = [
  ['1.x', connectV1],
  ['2.x', connectV2],
] as const;

const TRANSPORTS = ['HTTP with --sessions', 'stdio'] as const;

/** Connects a pinned client to a fresh demo and checks it negotiated the pinned revision. */
async function connect(
  transport: (typeof TRANSPORTS)[number],
  connectClient: typeof connectV1,
  revision: string,
): Promise<{ peer: Peer; log: DemoLog }> {
  const log: DemoLog = { lines: [] };
  if (transport === 'stdio') {
    peer = await connectClient({ stdio: true }, revision);
    const stderr = peer.stderr();
    if (stderr === null) throw new Error('the stdio transport piped no stderr');
    collect(stderr, log);
  } else {
    peer = await connectClient({ url: await startHttpDemo(log) }, revision);
  }
  expect(peer.negotiated()).toBe(revision);
  return { peer, log };
}

function textOf(result: Record<string, unknown>): string {
  const [first] = result['content'] as Array<{ text?: string }>;
  return String(first?.text);
}

describe.each(CLIENTS)('the official %s client', (version, connectClient) => {
  const model = `sdk-${version === '1.x' ? 'v1' : 'v2'}-model`;
  describe.each(TRANSPORTS)('against the demo over %s', (transport) => {
    describe.each(PINNED)('pinned to %s', (revision) => {
      test('answers the sampling request ask_model sends it, and the tool returns the completion', async () => {
        const { peer } = await connect(transport, connectClient, revision);
        const result = await peer.call('ask_model', { question: 'What is the capital of France?' });
        expect(result['isError']).not.toBe(true);
        expect(textOf(result)).toBe(`The client’s model (${model}) answered: ${COMPLETION}`);
        expect(peer.asked.sampling).toEqual(['What is the capital of France?']);
      });

      if (revision === '2025-03-26') {
        test('is never sent an elicitation request, which its revision lacks: ask_user is refused -32021', async () => {
          const { peer } = await connect(transport, connectClient, revision);
          await expect(peer.call('ask_user', { question: 'What is your name?' })).rejects.toThrow(
            /Missing required client capability/,
          );
          expect(peer.asked.elicitation).toEqual([]);
        });
      } else {
        test('answers the elicitation request ask_user sends it, and the tool returns the answer', async () => {
          const { peer } = await connect(transport, connectClient, revision);
          const result = await peer.call('ask_user', { question: 'What is your name?' });
          expect(result['isError']).not.toBe(true);
          expect(textOf(result)).toBe(`The user answered: ${USER_ANSWER}`);
          expect(peer.asked.elicitation).toEqual(['What is your name?']);
        });
      }

      test('hears a tools list_changed when announce_tools_changed is called', async () => {
        const { peer } = await connect(transport, connectClient, revision);
        // Over HTTP the session's GET stream opens after initialized: announce until it is heard.
        await expect
          .poll(async () => {
            await peer.call('announce_tools_changed', {});
            return peer.heardListChanged();
          })
          .toBeGreaterThan(0);
      });

      test("cancels a call of wait, and the demo says the handler's signal fired", async () => {
        const { peer, log } = await connect(transport, connectClient, revision);
        const controller = new AbortController();
        // The first progress report says the handler is running, so the cancel cannot precede it.
        let running: () => void = () => {};
        const started = new Promise<void>((resolve) => {
          running = resolve;
        });
        const call = peer.call('wait', { seconds: 30 }, { signal: controller.signal, onprogress: running });
        await started;
        controller.abort('the user gave up');
        await expect(call).rejects.toThrow();
        await expect
          .poll(() => log.lines.filter((line) => line.includes('wait stopped after')), { timeout: 5_000 })
          .toEqual([
            expect.stringMatching(/^palisade demo: wait stopped after \d+\.\d\d s: its signal fired$/),
          ]);
        // The connection serves on.
        expect(textOf(await peer.call('echo', { text: 'after' }))).toBe('after');
      });
    });
  });
});

describe('the official 2.x client on 2026-07-28, against the demo served statelessly (no sealer)', () => {
  /** 2.x in auto mode discovers 2026-07-28 and fulfils an `input_required` answer with its handlers. */
  async function connectModern(transport: 'HTTP' | 'stdio'): Promise<Peer> {
    const asked: Asked = { sampling: [], elicitation: [] };
    const answer = handlers(asked, 'v2');
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { capabilities: CAPABILITIES, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('sampling/createMessage', (request) =>
      answer.sample(questionOf(request.params)),
    );
    client.setRequestHandler('elicitation/create', (request) => answer.elicit(request.params.message));
    const target =
      transport === 'HTTP'
        ? new HttpTransportV2(await startHttpDemo({ lines: [] }, []))
        : new StdioTransportV2(STDIO);
    await client.connect(target);
    peer = {
      negotiated: () => client.getNegotiatedProtocolVersion(),
      asked,
      call: (name, args) => client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>,
      heardListChanged: () => 0,
      stderr: () => null,
      close: () => client.close(),
    };
    expect(peer.negotiated()).toBe('2026-07-28');
    return peer;
  }

  describe.each(['HTTP', 'stdio'] as const)('over %s', (transport) => {
    test("answers ask_model's sampling request in the retry, and the tool returns the completion", async () => {
      const peer = await connectModern(transport);
      const result = await peer.call('ask_model', { question: 'What is the capital of France?' });
      expect(textOf(result)).toBe(`The client’s model (sdk-v2-model) answered: ${COMPLETION}`);
      expect(peer.asked.sampling).toEqual(['What is the capital of France?']);
    });

    test("answers ask_user's elicitation request in the retry, and the tool returns the answer", async () => {
      const peer = await connectModern(transport);
      const result = await peer.call('ask_user', { question: 'What is your name?' });
      expect(textOf(result)).toBe(`The user answered: ${USER_ANSWER}`);
      expect(peer.asked.elicitation).toEqual(['What is your name?']);
    });
  });
});

describe('the demo’s ask_user, when the user does not answer the form', () => {
  test.each([
    ['decline', 'The user declined to answer.'],
    ['cancel', 'The user dismissed the question.'],
  ] as const)('a client answering %s gets a result saying so', async (action, said) => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { capabilities: CAPABILITIES, supportedProtocolVersions: ['2025-11-25'] },
    );
    client.setRequestHandler('elicitation/create', () => ({ action }));
    await client.connect(new StdioTransportV2(STDIO));
    peer = {
      negotiated: () => client.getNegotiatedProtocolVersion(),
      asked: { sampling: [], elicitation: [] },
      call: (name, args) => client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>,
      heardListChanged: () => 0,
      stderr: () => null,
      close: () => client.close(),
    };
    const result = await peer.call('ask_user', {});
    expect(result['isError']).not.toBe(true);
    expect(textOf(result)).toBe(said);
  });
});
