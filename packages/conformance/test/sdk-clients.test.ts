/**
 * The conformance fixture as `npm run conformance` builds it (`dist/main.js`), driven over real
 * sockets and real pipes by the official TypeScript SDK clients: 1.x, and 2.x in its default
 * (legacy) and auto modes. Each lists every tool, resource, template and prompt, reads and gets
 * all of them, and calls every tool that needs no input from the client (MRTR and sampling tools
 * are the conformance suite's to drive).
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
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as basic from '../src/fixture/basic.js';
import * as changes from '../src/fixture/changes.js';

const FIXTURE = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const STDIO = { command: process.execPath, args: [FIXTURE, '--stdio'], stderr: 'pipe' as const };

/**
 * The tools that answer without input from the client: those of basic.ts and changes.ts, read
 * from the fixture's source so a tool added there must be given an expectation below. The MRTR
 * and sampling tools (input-required.ts) and the tasks extension's (tasks.ts) are left to the
 * conformance suite.
 */
const CALLABLE = [...basic.tools, ...changes.tools].map((tool) => tool.name);

/** Prompts answered only after the client supplies input (MRTR). */
const NEEDS_CLIENT_INPUT = /^test_input_required_/;

const PNG = (data: unknown): string => Buffer.from(String(data), 'base64').subarray(1, 4).toString('latin1');
const WAV = (data: unknown): string => Buffer.from(String(data), 'base64').subarray(0, 4).toString('latin1');

/** What each tool's call must answer; a CALLABLE tool missing here fails the walk. */
const CALLS: Record<string, { arguments?: Record<string, unknown>; expect: Record<string, unknown> }> = {
  test_simple_text: {
    expect: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
  },
  test_image_content: { expect: { content: [{ type: 'image', mimeType: 'image/png' }] } },
  test_audio_content: { expect: { content: [{ type: 'audio', mimeType: 'audio/wav' }] } },
  test_embedded_resource: {
    expect: {
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain' } }],
    },
  },
  test_multiple_content_types: {
    expect: { content: [{ type: 'text' }, { type: 'image' }, { type: 'resource' }] },
  },
  test_error_handling: { expect: { isError: true } },
  test_tool_with_progress: { expect: { content: [{ type: 'text', text: 'Progress tool completed.' }] } },
  test_tool_with_logging: { expect: { content: [{ type: 'text', text: 'Logging tool completed.' }] } },
  test_logging_tool: { expect: { content: [{ type: 'text', text: 'Logged.' }] } },
  test_streaming_elicitation: { expect: { content: [{ type: 'text', text: 'No elicitation was needed.' }] } },
  json_schema_2020_12_tool: {
    arguments: { name: 'Ada', contactMethod: 'email', email: 'ada@example.org' },
    expect: { content: [{ type: 'text', text: 'ok' }] },
  },
  test_x_mcp_header: {
    arguments: { region: 'eu' },
    expect: { content: [{ type: 'text', text: 'region: eu' }] },
  },
  test_trigger_tool_change: { expect: { content: [{ type: 'text', text: 'tools list change announced' }] } },
  test_trigger_prompt_change: {
    expect: { content: [{ type: 'text', text: 'prompts list change announced' }] },
  },
};

/** The prompts that need no input from the client, with the arguments they require. */
const PROMPTS: Record<string, Record<string, string>> = {
  test_simple_prompt: {},
  test_prompt_with_arguments: { arg1: 'one', arg2: 'two' },
  test_prompt_with_embedded_resource: { resourceUri: 'test://static-text' },
  test_prompt_with_image: {},
};

type Progress = { progress: number; total?: number | undefined };
type CallParams = { name: string; arguments?: Record<string, unknown> };

/** The surface both SDK majors share, a call adapted to each one's progress option. */
interface Session {
  readonly revision: string | undefined;
  call(params: CallParams, onprogress: (progress: Progress) => void): Promise<Record<string, unknown>>;
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  readResource(params: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

let fixture: ChildProcess | undefined;
let url: URL;

beforeAll(async () => {
  const child = spawn(process.execPath, [FIXTURE, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  fixture = child;
  let stdout = '';
  url = await new Promise<URL>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const found = /^(http:\/\/\S+\/mcp)\n/.exec(stdout);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited (${code}) before serving`)));
  });
});

afterAll(async () => {
  if (fixture !== undefined && fixture.exitCode === null && fixture.signalCode === null) {
    fixture.kill('SIGTERM');
    await once(fixture, 'exit');
  }
});

/** 1.x has no getter for the revision; it hands the one the server answered to the transport. */
class RecordingStdioV1 extends StdioTransportV1 {
  revision: string | undefined;
  setProtocolVersion(version: string): void {
    this.revision = version;
  }
}

async function v1(over: 'http' | 'stdio'): Promise<Session> {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  const transport = over === 'http' ? new HttpTransportV1(url) : new RecordingStdioV1(STDIO);
  await client.connect(transport);
  const revision = transport instanceof HttpTransportV1 ? transport.protocolVersion : transport.revision;
  const session = client as unknown as Session;
  return Object.assign(session, {
    revision,
    call: (params: CallParams, onprogress: (progress: Progress) => void) =>
      client.callTool(params, undefined, { onprogress }),
  });
}

async function v2(over: 'http' | 'stdio', mode: 'legacy' | 'auto'): Promise<Session> {
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(over === 'http' ? new HttpTransportV2(url) : new StdioTransportV2(STDIO));
  const session = client as unknown as Session;
  return Object.assign(session, {
    revision: client.getNegotiatedProtocolVersion(),
    call: (params: CallParams, onprogress: (progress: Progress) => void) =>
      client.callTool(params, { onprogress }),
  });
}

/**
 * The fixture reports 0, 50 and 100 of 100, and the server writes all three before the result (a
 * raw pipe sees them every time). Both SDK majors run a notification's handler a microtask later
 * but settle a response at once, dropping its progress handler: a notification read in the same
 * chunk as the result is then lost client-side ("progress notification for an unknown token").
 * So what arrives is an in-order part of the three, never one out of order or a stranger.
 */
function expectProgress(progress: Progress[]): void {
  expect(progress.length).toBeGreaterThan(0);
  for (const step of progress) expect(step.total).toBe(100);
  const values = progress.map((step) => step.progress);
  expect(values).toEqual([0, 50, 100].filter((value) => values.includes(value)));
}

async function walk(session: Session): Promise<void> {
  const { tools } = await session.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(CALLABLE));
  for (const name of CALLABLE) {
    const call = CALLS[name];
    expect(call, `no expectation for the fixture tool ${name}`).toBeDefined();
    const progress: Progress[] = [];
    const result = await session.call({ name, arguments: call?.arguments ?? {} }, (step) => {
      progress.push(step);
    });
    expect(result, name).toMatchObject(call?.expect ?? {});
    if (name === 'test_tool_with_progress') expectProgress(progress);
    const data = (result['content'] as Array<Record<string, unknown>>)[0]?.['data'];
    if (name === 'test_image_content') expect(PNG(data)).toBe('PNG');
    if (name === 'test_audio_content') expect(WAV(data)).toBe('RIFF');
  }

  const { resources } = await session.listResources();
  expect(resources.map((resource) => resource.uri)).toEqual(
    expect.arrayContaining(['test://static-text', 'test://static-binary', 'test://watched-resource']),
  );
  for (const { uri } of resources) {
    const { contents } = await session.readResource({ uri });
    expect(contents[0]).toMatchObject({ uri });
  }
  const binary = await session.readResource({ uri: 'test://static-binary' });
  expect(PNG(binary.contents[0]?.['blob'])).toBe('PNG');
  const { resourceTemplates } = await session.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['test://template/{id}/data']);
  const templated = await session.readResource({ uri: 'test://template/7/data' });
  expect(JSON.parse(String(templated.contents[0]?.['text']))).toEqual({
    id: '7',
    templateTest: true,
    data: 'Data for ID: 7',
  });

  const { prompts } = await session.listPrompts();
  const gettable = prompts.map((prompt) => prompt.name).filter((name) => !NEEDS_CLIENT_INPUT.test(name));
  expect(gettable.sort()).toEqual(Object.keys(PROMPTS).sort());
  for (const name of gettable) {
    const { messages } = await session.getPrompt({ name, arguments: PROMPTS[name] ?? {} });
    expect(messages.length, name).toBeGreaterThan(0);
  }
  const withArguments = await session.getPrompt({
    name: 'test_prompt_with_arguments',
    arguments: PROMPTS['test_prompt_with_arguments'] ?? {},
  });
  expect(withArguments.messages).toEqual([
    { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } },
  ]);
}

const CLIENTS: Array<{ who: string; revision: string; open: () => Promise<Session> }> = [
  { who: 'the 1.x client over HTTP', revision: '2025-11-25', open: () => v1('http') },
  {
    who: 'the 2.x client in its default legacy mode over HTTP',
    revision: '2025-11-25',
    open: () => v2('http', 'legacy'),
  },
  { who: 'the 2.x client in auto mode over HTTP', revision: '2026-07-28', open: () => v2('http', 'auto') },
  { who: 'the 1.x client over stdio', revision: '2025-11-25', open: () => v1('stdio') },
  {
    who: 'the 2.x client in its default legacy mode over stdio',
    revision: '2025-11-25',
    open: () => v2('stdio', 'legacy'),
  },
  { who: 'the 2.x client in auto mode over stdio', revision: '2026-07-28', open: () => v2('stdio', 'auto') },
];

describe('the conformance fixture with the official SDK clients', () => {
  for (const { who, revision, open } of CLIENTS) {
    test(`${who} negotiates ${revision}, lists and reads everything and calls every tool needing no client input`, async () => {
      const session = await open();
      try {
        expect(session.revision).toBe(revision);
        await walk(session);
      } finally {
        await session.close();
      }
    });
  }
});
