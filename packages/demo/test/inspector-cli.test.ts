/**
 * The demo as `npm start` runs it (the built `dist/main.js`), over HTTP and over stdio, driven by
 * the MCP Inspector's command-line client `mcpdo`, each command a real `mcpdo` process talking to
 * its own daemon. mcpdo negotiates the legacy era (2025-11-25) unless told `--era auto`, which finds
 * 2026-07-28. Every mcpdo run costs most of a second of CPU on start-up, so the legacy connection
 * is walked whole and the modern one checked with one call, and this file and the conformance
 * fixture's (packages/conformance/test/inspector-cli.test.ts) split the transports between them:
 * the demo is walked over stdio and called over HTTP, the fixture the other way round. Each
 * transport meets each era once; running all four on both servers cost 50 s of CPU a run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpdo, type Mcpdo, McpdoError } from './mcpdo.js';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** mcpdo starts in about a second of CPU; a walk is eight of them on a shared two-core machine. */
const MCPDO_TEST_MS = 60_000;

const demos: ChildProcess[] = [];
let mcpdo: Mcpdo;

/** Starts the demo over HTTP on port 0 and reads the URL it prints to stderr. */
async function startHttpDemo(flags: readonly string[] = []): Promise<string> {
  const child = spawn(process.execPath, [DEMO, '--port', '0', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  demos.push(child);
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const found = /at (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before serving: ${stderr}`)));
  });
}

beforeAll(async () => {
  const [url, sessionsUrl] = await Promise.all([startHttpDemo(), startHttpDemo(['--sessions'])]);
  const http = { type: 'streamable-http', url } as const;
  const sessions = { type: 'streamable-http', url: sessionsUrl } as const;
  const stdio = { command: process.execPath, args: [DEMO, '--stdio'] };
  mcpdo = await createMcpdo({ 'demo-stdio': stdio, 'demo-http-auto': http, 'demo-http-sessions': sessions });
});

afterAll(async () => {
  try {
    await mcpdo?.stop();
  } finally {
    for (const demo of demos.splice(0)) {
      if (demo.exitCode !== null || demo.signalCode !== null) continue;
      demo.kill('SIGTERM');
      await once(demo, 'exit');
    }
  }
}, MCPDO_TEST_MS);

const names = (list: unknown, key: string): unknown[] =>
  (list as Array<Record<string, unknown>>).map((entry) => entry[key]);

/** Lists, calls, reads and gets through mcpdo, its commands run side by side. */
async function walk(connection: string): Promise<void> {
  const on = (...command: string[]) => mcpdo.on(connection, ...command);
  const [tools, add, fault, readable, resources, readme, prompts, greeting] = await Promise.all([
    on('tools/list'),
    on('tools/call', 'add', 'a:=2', 'b:=40'),
    on('tools/call', 'fail').catch((error: unknown) => error),
    on('tools/call', 'divide', 'a:=1', 'b:=0').catch((error: unknown) => error),
    on('resources/list'),
    on('resources/read', 'demo://readme'),
    on('prompts/list'),
    on('prompts/get', 'greet', '--prompt-args', 'name=Ada', 'style=formal'),
  ]);
  expect(names(tools['tools'], 'name').sort()).toEqual([
    'add',
    'announce_tools_changed',
    'ask_model',
    'ask_user',
    'count',
    'divide',
    'echo',
    'embed_readme',
    'fail',
    'link_readme',
    'play_sound',
    'show_image',
    'wait',
  ]);
  expect(add).toMatchObject({ structuredContent: { sum: 42 } });
  // A host fault is a JSON-RPC error (-32603) and mcpdo exits 1 with its message. It comes with
  // status 200 over HTTP: a 5xx made the SDK under mcpdo drop the connection that the other
  // commands of this walk, run side by side, were using.
  expect(fault).toBeInstanceOf(McpdoError);
  expect(fault).toMatchObject({ exitCode: 1, message: expect.stringContaining('Internal error') });
  // A ToolError is a tool result, not a JSON-RPC error: mcpdo prints it, then exits 5 for isError.
  expect(readable).toMatchObject({ exitCode: 5, errorCode: 'tool_is_error' });
  expect(JSON.parse((readable as McpdoError).stdout)).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: 'Cannot divide by zero: b must not be 0.' }],
  });
  expect(names(resources['resources'], 'uri')).toContain('demo://readme');
  expect(readme).toMatchObject({ contents: [{ uri: 'demo://readme', mimeType: 'text/markdown' }] });
  expect(names(prompts['prompts'], 'name')).toEqual(['greet']);
  expect(greeting).toMatchObject({
    messages: [{ role: 'user', content: { type: 'text', text: 'Write a formal greeting for Ada.' } }],
  });
}

describe('the demo driven by the MCP Inspector’s mcpdo command line', () => {
  test(
    'over stdio, mcpdo negotiates 2025-11-25 by default and lists, calls, reads and gets',
    async () => {
      const connection = await mcpdo.connect('demo-stdio');
      expect(connection).toMatchObject({
        protocolVersion: '2025-11-25',
        protocolEra: 'legacy',
        serverInfo: { name: 'palisade-demo' },
      });
      await walk('demo-stdio');
    },
    MCPDO_TEST_MS,
  );
  test(
    'over http, mcpdo with --era auto negotiates 2026-07-28 and calls a tool',
    async () => {
      const name = 'demo-http-auto';
      const connection = await mcpdo.connect(name, 'auto');
      expect(connection).toMatchObject({
        protocolVersion: '2026-07-28',
        protocolEra: 'modern',
        serverInfo: { name: 'palisade-demo' },
      });
      expect(await mcpdo.on(name, 'tools/call', 'echo', '{"text":"hello"}')).toMatchObject({
        content: [{ type: 'text', text: 'hello' }],
      });
    },
    MCPDO_TEST_MS,
  );
  test(
    'over http with --sessions, mcpdo negotiates 2025-11-25 on a session and calls a tool',
    async () => {
      const name = 'demo-http-sessions';
      const connection = await mcpdo.connect(name);
      expect(connection).toMatchObject({ protocolVersion: '2025-11-25', protocolEra: 'legacy' });
      // Every request after initialize must carry the session id: a call answered proves mcpdo kept it.
      expect(await mcpdo.on(name, 'tools/call', 'echo', '{"text":"hello"}')).toMatchObject({
        content: [{ type: 'text', text: 'hello' }],
      });
    },
    MCPDO_TEST_MS,
  );
});
