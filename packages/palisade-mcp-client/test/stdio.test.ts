/**
 * The stdio transport over real pipes, and the in-process pair: the demo as `npm start --stdio`
 * runs it on every revision, a spawn that is explicit about what the child gets, and the end of
 * a child with a grace.
 */
import { fileURLToPath } from 'node:url';
import { serveStdio } from 'palisade-mcp/stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { type Client, createClient, inProcessTransport, stdioTransport } from '../src/index.js';
import { environment, resolveCommand } from '../src/transport/stdio/spawn.js';
import { events, testServer } from './support/servers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DEMO = fileURLToPath(new URL('../../demo/dist/main.js', import.meta.url));
const ENV_SERVER = fileURLToPath(new URL('./fixtures/env-server.ts', import.meta.url));

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function demoClient(revisions?: string[]): Client {
  const client = createClient({
    transport: stdioTransport({ command: process.execPath, args: [DEMO, '--stdio'], stderr: 'ignore' }),
    ...(revisions === undefined ? {} : { revisions }),
  });
  clients.push(client);
  return client;
}

describe('the demo over stdio', () => {
  test.each([
    [undefined, '2026-07-28'],
    [['2025-11-25'], '2025-11-25'],
    [['2025-06-18'], '2025-06-18'],
    [['2025-03-26'], '2025-03-26'],
    [['2024-11-05'], '2024-11-05'],
  ])('a client accepting %j speaks %s and calls a tool', async (revisions, expected) => {
    const client = demoClient(revisions);
    const server = await client.connect();
    expect(server.revision).toBe(expected);
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect((await client.callTool('echo', { text: 'over a pipe' })).content).toEqual([
      { type: 'text', text: 'over a pipe' },
    ]);
    expect((await client.readResource('demo://readme')).contents.length).toBe(1);
  });

  test('a call’s signal fails it ABORTED and the connection serves the next call', async () => {
    const client = demoClient(['2025-11-25']);
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool('count', { steps: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(call).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_ABORTED' });
    expect((await client.callTool('echo', { text: 'still here' })).content[0]).toMatchObject({
      text: 'still here',
    });
  });
});

describe('spawning', () => {
  test('a bare command name is resolved to an absolute path on the PATH the child gets', () => {
    const node = resolveCommand('node', ROOT, `/nonexistent:${process.execPath.replace(/\/node$/, '')}`);
    expect(node.startsWith('/')).toBe(true);
    expect(() => resolveCommand('node', ROOT, '/nonexistent')).toThrow(
      expect.objectContaining({ code: 'PALISADE_CLIENT_ERR_SPAWN' }),
    );
  });

  test('a relative PATH entry is never searched, so the cwd cannot plant a command', () => {
    expect(() => resolveCommand('main.js', ROOT, 'packages/demo/dist')).toThrow(
      expect.objectContaining({ code: 'PALISADE_CLIENT_ERR_SPAWN' }),
    );
  });

  test('the child gets the base environment and the host’s variables, not the parent’s secrets, unless inheritEnv is set', () => {
    const parent = { PATH: '/bin', HOME: '/home/a', AWS_SECRET_ACCESS_KEY: 'x', LANG: 'C' };
    expect(environment({ EXTRA: '1' }, false, parent)).toEqual({
      PATH: '/bin',
      HOME: '/home/a',
      LANG: 'C',
      EXTRA: '1',
    });
    expect(environment({ HOME: false }, true, parent)).toEqual({
      PATH: '/bin',
      AWS_SECRET_ACCESS_KEY: 'x',
      LANG: 'C',
    });
  });

  test('a spawned server runs in the given cwd with the given variables and hands its stderr lines to the host', async () => {
    process.env['PALISADE_CLIENT_TEST_SECRET'] = 'never-passed';
    const lines: string[] = [];
    const client = createClient({
      transport: stdioTransport({
        command: 'node',
        args: ['--import', 'tsx', ENV_SERVER],
        cwd: ROOT,
        env: { GIVEN: 'yes' },
        stderr: (line) => lines.push(line),
      }),
    });
    clients.push(client);
    const result = await client.callTool('started_with');
    const seen = JSON.parse((result.content[0] as unknown as { text: string }).text) as {
      env: string[];
      cwd: string;
    };
    expect(seen.env).toContain('GIVEN');
    expect(seen.env).not.toContain('PALISADE_CLIENT_TEST_SECRET');
    expect(`${seen.cwd}/`).toBe(ROOT);
    expect(lines).toContain('env-server ready');
  });

  test('a command that does not exist fails by name before anything runs', async () => {
    const client = createClient({ transport: stdioTransport({ command: 'palisade-no-such-server' }) });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_SPAWN' });
  });

  test('close ends a child that ignores stdin with SIGTERM after the grace', async () => {
    const transport = stdioTransport({
      command: process.execPath,
      args: ['-e', "process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)"],
      closeGraceMs: 200,
    });
    const client = createClient({ transport, revisions: ['2025-11-25'], requestTimeoutMs: 300 });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_TIMEOUT' });
    const started = Date.now();
    await client.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('in-process', () => {
  test('a client and a Palisade server in one process speak through the bounded framer', async () => {
    const client = createClient({
      transport: inProcessTransport(({ input, output }) =>
        serveStdio(testServer(), { input, output, exitOnClose: false }),
      ),
      onElicitation: () => ({ action: 'accept', content: { name: 'Grace' } }),
    });
    clients.push(client);
    expect((await client.connect()).revision).toBe('2026-07-28');
    expect((await client.callTool('ask_name')).content[0]).toMatchObject({
      text: 'hello Grace ({"round":1})',
    });
  });

  test('a call aborted on a handshake revision reaches the server as notifications/cancelled', async () => {
    const client = createClient({
      transport: inProcessTransport(({ input, output }) =>
        serveStdio(testServer(), { input, output, exitOnClose: false }),
      ),
      revisions: ['2025-11-25'],
    });
    clients.push(client);
    const before = events.aborted;
    const started = events.started;
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    // Aborted once the handler runs: an abort before the request leaves never reaches it.
    await expect.poll(() => events.started).toBe(started + 1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_ABORTED' });
    await expect.poll(() => events.aborted).toBe(before + 1);
  });
});
