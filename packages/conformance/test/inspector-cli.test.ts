/**
 * The conformance fixture as `npm run conformance` builds it (`dist/main.js`), over HTTP and over
 * stdio, driven by the MCP Inspector's command-line client `mcpdo`, each command a real `mcpdo`
 * process talking to its own daemon. mcpdo negotiates the legacy era (2025-11-25) unless told
 * `--era auto`, which finds 2026-07-28. Every mcpdo run costs most of a second of CPU on start-up,
 * so the legacy connection is walked whole and the modern one checked with one call, and this file
 * and the demo's (packages/demo/test/inspector-cli.test.ts) split the transports between them: the
 * fixture is walked over HTTP and called over stdio, the demo the other way round.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpdo, type Mcpdo, McpdoError } from '../../demo/test/mcpdo.js';

const FIXTURE = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** mcpdo starts in about a second of CPU; a walk is eight of them on a shared two-core machine. */
const MCPDO_TEST_MS = 60_000;

let fixture: ChildProcess | undefined;
let mcpdo: Mcpdo;

/** Starts the fixture over HTTP on port 0 and reads the URL, the one line it writes to stdout. */
async function startHttpFixture(): Promise<string> {
  const child = spawn(process.execPath, [FIXTURE, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  fixture = child;
  let stdout = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      const found = /^(http:\/\/\S+\/mcp)\n/.exec(stdout);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited (${code}) before serving`)));
  });
}

beforeAll(async () => {
  const url = await startHttpFixture();
  const http = { type: 'streamable-http', url } as const;
  const stdio = { command: process.execPath, args: [FIXTURE, '--stdio'] };
  mcpdo = await createMcpdo({ 'fixture-http': http, 'fixture-stdio-auto': stdio });
});

afterAll(async () => {
  try {
    await mcpdo?.stop();
  } finally {
    if (fixture !== undefined && fixture.exitCode === null && fixture.signalCode === null) {
      fixture.kill('SIGTERM');
      await once(fixture, 'exit');
    }
  }
}, MCPDO_TEST_MS);

const names = (list: unknown, key: string): unknown[] =>
  (list as Array<Record<string, unknown>>).map((entry) => entry[key]);

/** Lists, calls, reads and gets through mcpdo, its commands run side by side. */
async function walk(connection: string): Promise<void> {
  const on = (...command: string[]) => mcpdo.on(connection, ...command);
  const [tools, simple, toolError, resources, template, prompts, prompt] = await Promise.all([
    on('tools/list'),
    on('tools/call', 'test_simple_text'),
    on('tools/call', 'test_error_handling').catch((error: unknown) => error),
    on('resources/list'),
    on('resources/read', 'test://template/7/data'),
    on('prompts/list'),
    on('prompts/get', 'test_prompt_with_arguments', '--prompt-args', 'arg1=one', 'arg2=two'),
  ]);
  expect(names(tools['tools'], 'name')).toEqual(
    expect.arrayContaining(['test_simple_text', 'test_image_content', 'test_x_mcp_header']),
  );
  expect(simple).toMatchObject({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  });
  // A tool error is a result with isError, not a JSON-RPC error: mcpdo names it and exits 5.
  expect(toolError).toBeInstanceOf(McpdoError);
  expect(toolError).toMatchObject({ exitCode: 5, errorCode: 'tool_is_error' });
  expect(names(resources['resources'], 'uri')).toEqual(
    expect.arrayContaining(['test://static-text', 'test://static-binary']),
  );
  expect(template).toMatchObject({
    contents: [{ uri: 'test://template/7/data', text: expect.stringContaining('Data for ID: 7') }],
  });
  expect(names(prompts['prompts'], 'name')).toContain('test_prompt_with_arguments');
  expect(prompt).toMatchObject({
    messages: [{ role: 'user', content: { text: "Prompt with arguments: arg1='one', arg2='two'" } }],
  });
}

describe('the conformance fixture driven by the MCP Inspector’s mcpdo command line', () => {
  test(
    'over http, mcpdo negotiates 2025-11-25 by default and lists, calls, reads and gets',
    async () => {
      const connection = await mcpdo.connect('fixture-http');
      expect(connection).toMatchObject({
        protocolVersion: '2025-11-25',
        protocolEra: 'legacy',
        serverInfo: { name: 'palisade-conformance-fixture' },
      });
      await walk('fixture-http');
    },
    MCPDO_TEST_MS,
  );
  test(
    'over stdio, mcpdo with --era auto negotiates 2026-07-28 and calls a tool',
    async () => {
      const name = 'fixture-stdio-auto';
      const connection = await mcpdo.connect(name, 'auto');
      expect(connection).toMatchObject({
        protocolVersion: '2026-07-28',
        protocolEra: 'modern',
        serverInfo: { name: 'palisade-conformance-fixture' },
      });
      expect(await mcpdo.on(name, 'tools/call', 'test_x_mcp_header', 'region:=eu')).toMatchObject({
        content: [{ type: 'text', text: 'region: eu' }],
      });
    },
    MCPDO_TEST_MS,
  );
});
