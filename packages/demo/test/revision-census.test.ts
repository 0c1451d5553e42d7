/**
 * The census of what the demo says, revision by revision: the demo exactly as `npm start` runs it
 * (the built `dist/main.js`), over its real stdio pipes and a real HTTP socket, is walked through
 * everything it offers (the handshake or discovery, every list, every tool called, every resource
 * and template read, the prompt got, completions, each way a request can be refused, progress and
 * log notifications), and every message it sends back is validated against the schema of the
 * revision it was sent under, closed (packages/palisade-mcp/test/support/closed-schema.ts): a
 * member that revision does not define is a violation, as is a missing required one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { closedViolations } from '../../palisade-mcp/test/support/closed-schema.js';
import type { SchemaRevision } from '../../palisade-mcp/test/support/spec-schemas.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const MODERN = '2026-07-28';

type Json = Record<string, unknown>;

interface Step {
  readonly method: string;
  readonly params?: Json;
  /** A notification: nothing comes back. */
  readonly notification?: true;
}

/** The demo's tools, each with arguments its schema admits. */
const CALLS: ReadonlyArray<[string, Json]> = [
  ['echo', { text: 'hello' }],
  ['add', { a: 2, b: 40 }],
  ['fail', {}],
  ['show_image', {}],
  ['play_sound', {}],
  ['link_readme', {}],
  ['embed_readme', {}],
  // The census declares no client capabilities: refused -32021 where the demo can ask the client
  // (stdio, 2026-07-28), a tool error where it cannot (a handshake revision over stateless HTTP).
  ['ask_model', {}],
  ['ask_user', {}],
  // A tools list_changed on stdio, which the census then validates too.
  ['announce_tools_changed', {}],
  ['wait', { seconds: 0 }],
];

/** Everything both eras ask; each revision's walk adds its own opening. */
const WALK: readonly Step[] = [
  { method: 'tools/list' },
  { method: 'resources/list' },
  { method: 'resources/templates/list' },
  { method: 'prompts/list' },
  ...CALLS.map(([name, args]): Step => ({ method: 'tools/call', params: { name, arguments: args } })),
  // Progress and a log line per step: the notifications.
  {
    method: 'tools/call',
    params: { name: 'count', arguments: { steps: 2 }, _meta: { progressToken: 'census' } },
  },
  // Refusals: arguments that fail the schema (a tool error), an unknown tool, no name at all.
  { method: 'tools/call', params: { name: 'echo', arguments: {} } },
  { method: 'tools/call', params: { name: 'nope' } },
  { method: 'tools/call', params: {} },
  ...['demo://readme', 'demo://pixel.png', 'demo://notes/welcome', 'connectome://declared'].map(
    (uri): Step => ({ method: 'resources/read', params: { uri } }),
  ),
  { method: 'resources/read', params: { uri: 'demo://notes/missing' } },
  { method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada', style: 'formal' } } },
  { method: 'prompts/get', params: { name: 'greet', arguments: {} } },
  { method: 'prompts/get', params: { name: 'nope' } },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'f' } },
  },
  {
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: 'demo://notes/{id}' }, argument: { name: 'id', value: 'w' } },
  },
  { method: 'resources/subscribe', params: { uri: 'demo://readme' } },
  { method: 'no/such/method' },
];

function handshakeWalk(revision: string): Step[] {
  return [
    {
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'census', version: '1' } },
    },
    { method: 'notifications/initialized', notification: true },
    { method: 'ping' },
    { method: 'logging/setLevel', params: { level: 'debug' } },
    ...WALK,
  ];
}

/** 2026-07-28: discovery first, and the methods it removed, each refused. */
function modernWalk(): Step[] {
  return [{ method: 'server/discover' }, ...WALK, { method: 'ping' }, { method: 'initialize', params: {} }];
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/logLevel': 'debug',
};

function message(step: Step, id: number, modern: boolean): Json {
  const params: Json = { ...(step.params ?? {}) };
  if (modern) params['_meta'] = { ...MODERN_META, ...((params['_meta'] as Json | undefined) ?? {}) };
  const base: Json = { jsonrpc: '2.0', method: step.method };
  if (Object.keys(params).length > 0) base['params'] = params;
  return step.notification === true ? base : { ...base, id };
}

/** What came back, each message with the method of the request it answers (none for a notification). */
interface Received {
  readonly message: Json;
  readonly method: string | undefined;
}

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** Walks the demo over stdio, one request at a time, collecting every line until each is answered. */
async function overStdio(steps: readonly Step[], modern: boolean): Promise<Received[]> {
  const child = spawn(process.execPath, [DEMO, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> })[
    Symbol.asyncIterator
  ]();
  const received: Received[] = [];
  const methods = new Map<number, string>();
  let id = 0;
  for (const step of steps) {
    id += 1;
    const sent = message(step, id, modern);
    child.stdin?.write(`${JSON.stringify(sent)}\n`);
    if (step.notification === true) continue;
    methods.set(id, step.method);
    for (;;) {
      const next = await lines.next();
      if (next.done === true) throw new Error('the demo closed stdout');
      const reply = JSON.parse(next.value) as Json;
      const answers = typeof reply['id'] === 'number' ? methods.get(reply['id']) : undefined;
      received.push({ message: reply, method: answers });
      if (reply['id'] === id) break;
    }
  }
  child.stdin?.end();
  await once(child, 'exit');
  return received;
}

let httpDemo: Promise<string> | undefined;

/** One demo over HTTP for every HTTP walk: each POST stands alone. */
function httpUrl(): Promise<string> {
  httpDemo ??= new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const found = /at (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before serving: ${stderr}`)));
  });
  return httpDemo;
}

const MCP_NAME: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * Walks the demo over HTTP. `header`: the `MCP-Protocol-Version` every POST after `initialize`
 * carries (2026-07-28 adds `Mcp-Method` and `Mcp-Name`), or undefined for none at all.
 */
async function overHttp(
  steps: readonly Step[],
  modern: boolean,
  header: string | undefined,
): Promise<Received[]> {
  const url = await httpUrl();
  const received: Received[] = [];
  let id = 0;
  for (const step of steps) {
    id += 1;
    const sent = message(step, id, modern);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (header !== undefined && step.method !== 'initialize') headers['mcp-protocol-version'] = header;
    if (modern) {
      headers['mcp-method'] = step.method;
      const nameKey = MCP_NAME[step.method];
      const name = nameKey === undefined ? undefined : (step.params?.[nameKey] as string | undefined);
      if (name !== undefined) headers['mcp-name'] = name;
    }
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(sent) });
    const text = await response.text();
    if (step.notification === true) {
      expect(response.status).toBe(202);
      continue;
    }
    const bodies = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice('data:'.length).trim())
      : [text];
    for (const body of bodies) {
      const reply = JSON.parse(body) as Json;
      received.push({ message: reply, method: reply['id'] === id ? step.method : undefined });
    }
  }
  return received;
}

interface Census {
  readonly violations: string[];
  readonly results: number;
  readonly errors: number;
  readonly notifications: number;
  readonly negotiated: unknown;
}

/** Every message validated under `revision`, and how many of each kind there were. */
function census(revision: SchemaRevision, received: readonly Received[]): Census {
  const violations = received.flatMap(({ message, method }) =>
    closedViolations(revision, message, method).map(
      (violation) => `${JSON.stringify(message).slice(0, 160)}: ${violation}`,
    ),
  );
  const initialize = received.find((entry) => entry.method === 'initialize')?.message['result'] as
    | Json
    | undefined;
  return {
    violations,
    results: received.filter(({ message }) => message['result'] !== undefined).length,
    errors: received.filter(({ message }) => message['error'] !== undefined).length,
    notifications: received.filter(({ message }) => typeof message['method'] === 'string').length,
    negotiated: initialize?.['protocolVersion'],
  };
}

/** Results: the opening, four lists, seven calls with a result, reads, prompts, completions. */
function expectCoverage(taken: Census): void {
  expect(taken.results).toBeGreaterThanOrEqual(20);
  // fail (-32603), an unknown tool, a call without a name, a missing note, a missing argument,
  // an unknown prompt, resources/subscribe (no subscriptions declared), an unknown method.
  expect(taken.errors).toBeGreaterThanOrEqual(8);
  // count: two progress notifications and two log messages.
  expect(taken.notifications).toBeGreaterThanOrEqual(4);
}

const HANDSHAKE: readonly SchemaRevision[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

describe('census: every answer the demo gives over stdio is valid under its revision’s schema, closed', () => {
  test('2026-07-28 over stdio', async () => {
    const taken = census(MODERN, await overStdio(modernWalk(), true));
    expect(taken.violations).toEqual([]);
    expectCoverage(taken);
  });

  test.each(HANDSHAKE)('%s over stdio', { tags: ['threat-model'] }, async (revision) => {
    const taken = census(revision, await overStdio(handshakeWalk(revision), false));
    expect(taken.negotiated).toBe(revision);
    expect(taken.violations).toEqual([]);
    expectCoverage(taken);
  });
});

describe('census: every answer the demo gives over HTTP is valid under its revision’s schema, closed', () => {
  test('2026-07-28 over HTTP', async () => {
    const taken = census(MODERN, await overHttp(modernWalk(), true, MODERN));
    expect(taken.violations).toEqual([]);
    expectCoverage(taken);
  });

  test.each(['2025-11-25', '2025-06-18', '2025-03-26'] as const)(
    '%s over HTTP',
    { tags: ['threat-model'] },
    async (revision) => {
      const taken = census(revision, await overHttp(handshakeWalk(revision), false, revision));
      expect(taken.negotiated).toBe(revision);
      expect(taken.violations).toEqual([]);
      expectCoverage(taken);
    },
  );

  test('2025-03-26 over HTTP without any MCP-Protocol-Version header', {
    tags: ['threat-model'],
  }, async () => {
    const taken = census('2025-03-26', await overHttp(handshakeWalk('2025-03-26'), false, undefined));
    expect(taken.negotiated).toBe('2025-03-26');
    expect(taken.violations).toEqual([]);
    expectCoverage(taken);
  });

  test('a 2024-11-05 client over HTTP is countered with 2025-11-25, and served valid 2025-11-25', async () => {
    const walk = handshakeWalk('2024-11-05');
    const taken = census('2025-11-25', await overHttp(walk, false, '2025-11-25'));
    expect(taken.negotiated).toBe('2025-11-25');
    expect(taken.violations).toEqual([]);
    expectCoverage(taken);
  });
});

describe('the closed census can fail', () => {
  test('a planted title on a 2025-03-26 tool is named', { tags: ['threat-model'] }, () => {
    const planted = {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 't', title: 'T', inputSchema: { type: 'object' } }] },
    };
    expect(closedViolations('2025-03-26', planted, 'tools/list')).toEqual([
      'result of tools/list (ListToolsResult)/tools/0 must NOT have additional properties (title)',
    ]);
    expect(closedViolations('2025-06-18', planted, 'tools/list')).toEqual([]);
  });

  test('a planted audio block on a 2024-11-05 tool result is named', () => {
    const planted = {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] },
    };
    expect(closedViolations('2024-11-05', planted, 'tools/call').length).toBeGreaterThan(0);
    expect(closedViolations('2025-03-26', planted, 'tools/call')).toEqual([]);
  });

  test('a planted message on 2024-11-05 progress is named', () => {
    const planted = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1, message: 'm' },
    };
    expect(closedViolations('2024-11-05', planted)).toEqual([
      'notifications/progress (ProgressNotification)/params must NOT have additional properties (message)',
    ]);
  });

  test('a missing required member is named', () => {
    const planted = { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {} } };
    expect(closedViolations('2025-06-18', planted, 'initialize')).toEqual([
      "result of initialize (InitializeResult) must have required property 'serverInfo'",
    ]);
  });
});
