/**
 * The `logger` option with a real pino logger writing JSON lines to a stream: refusals are logged
 * at `warn` with a stable `event` and their `rule`, host faults at `error` with the error's name
 * and code; request bodies, header values and the fault's own message (which quotes client input
 * here) never reach the log. HTTP over a real socket (`serve()`), stdio over a real pipe.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../src/http/node/serve.js';
import { createServer, defineTool, type PalisadeLogger } from '../../src/index.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { modern, StdioPeer } from '../support/stdio-peer.js';

const SECRET = 'SECRET-LOG-5b1e';

const server = createServer({
  name: 'logger',
  version: '1',
  tools: [
    defineTool<{ text: string }>({
      name: 'fail',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: ({ text }) => {
        // A host error that quotes the client's input, as parsers and validators do.
        const error = new TypeError(`cannot use ${text}`) as TypeError & { code: string };
        error.code = 'E_HOST';
        throw error;
      },
    }),
    defineTool<{ text: string }>({
      name: 'fail_plain',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: ({ text }) => {
        // Not an Error: nothing but the description can be logged of it.
        throw `cannot use ${text}`;
      },
    }),
  ],
});

/** A pino logger writing to memory, and the JSON lines it wrote. */
function pinoInMemory(): {
  logger: PalisadeLogger;
  lines: () => Record<string, unknown>[];
  raw: () => string;
} {
  let raw = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString('utf8');
      done();
    },
  });
  return {
    logger: pino({ level: 'debug' }, stream),
    raw: () => raw,
    lines: () =>
      raw
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let serving: Serving | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
});

async function start(options: Partial<ServeOptions>): Promise<Serving> {
  serving = await serve(server, {
    authorize: (request) =>
      request.headers['authorization'] === 'Bearer good'
        ? { ok: true }
        : { ok: false, status: 401, reason: 'no valid token' },
    allowedOrigins: [],
    ...options,
  });
  return serving;
}

function post(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'fail',
};
const SECRET_BODY = JSON.stringify(modern(1, 'tools/call', { name: 'fail', arguments: { text: SECRET } }));

describe('the logger option over HTTP', () => {
  test('a refused request logs its rule at warn, and neither the body nor the Authorization header', {
    tags: ['threat-model'],
  }, async () => {
    const log = pinoInMemory();
    const { port } = await start({ logger: log.logger });
    const status = await post(port, { ...JSON_HEADERS, authorization: `Bearer ${SECRET}` }, SECRET_BODY);
    expect(status).toBe(401);
    expect(log.lines()).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'palisade.refusal',
        transport: 'http',
        rule: 'authorize',
        status: 401,
        reason: 'no valid token',
        msg: 'palisade: request refused',
      }),
    ]);
    expect(log.raw()).not.toContain(SECRET);
  });

  test('a refusal decided on the headers logs its rule and none of the body', async () => {
    const log = pinoInMemory();
    const { port } = await start({ logger: log.logger });
    const status = await post(
      port,
      { 'content-type': 'text/plain', accept: 'application/json', authorization: 'Bearer good' },
      SECRET_BODY,
    );
    expect(status).toBe(415);
    expect(log.lines()).toEqual([
      expect.objectContaining({ event: 'palisade.refusal', rule: 'unsupported-media-type' }),
    ]);
    expect(log.raw()).not.toContain(SECRET);
  });

  test("a host fault logs its description and the error's name and code at error, never its message or stack", {
    tags: ['threat-model'],
  }, async () => {
    const log = pinoInMemory();
    const { port } = await start({ logger: log.logger });
    const status = await post(port, { ...JSON_HEADERS, authorization: 'Bearer good' }, SECRET_BODY);
    expect(status).toBe(200);
    expect(log.lines()).toEqual([
      expect.objectContaining({
        level: 50,
        event: 'palisade.fault',
        transport: 'http',
        description: 'tool "fail" handler threw',
        error: { name: 'TypeError', code: 'E_HOST' },
      }),
    ]);
    expect(log.raw()).not.toContain(SECRET);
    expect(log.raw()).not.toContain('at ');
  });

  test('a thrown value that is not an error is logged by its description alone', async () => {
    const log = pinoInMemory();
    const { port } = await start({ logger: log.logger });
    const body = JSON.stringify(modern(1, 'tools/call', { name: 'fail_plain', arguments: { text: SECRET } }));
    await post(port, { ...JSON_HEADERS, 'mcp-name': 'fail_plain', authorization: 'Bearer good' }, body);
    const [record, ...others] = log.lines();
    expect(others).toEqual([]);
    expect(record).toMatchObject({ event: 'palisade.fault', description: 'tool "fail_plain" handler threw' });
    expect(record).not.toHaveProperty('error');
    expect(log.raw()).not.toContain(SECRET);
  });

  test('an onLog the host passes takes the refusals, and the logger gets none of them', async () => {
    const log = pinoInMemory();
    const seen: string[] = [];
    const { port } = await start({ logger: log.logger, onLog: (event) => seen.push(event.rule) });
    await post(port, { ...JSON_HEADERS, authorization: 'Bearer wrong' }, SECRET_BODY);
    expect(seen).toEqual(['authorize']);
    expect(log.lines()).toEqual([]);
  });

  test('a logger without warn is refused at construction, naming the method', async () => {
    await expect(start({ logger: { error: () => {} } as never })).rejects.toThrow('option "logger.warn"');
  });
});

describe('the logger option over stdio', () => {
  const peer = new StdioPeer(
    spawn(process.execPath, [bundledFixture('serve-telemetry-stdio'), '--pino'], { stdio: 'pipe' }),
  );
  // A spawned tsx process can take many seconds to start on a busy machine: wait for its first answer.
  beforeAll(async () => {
    peer.sendJson(modern('warm', 'tools/list'));
    await peer.nextMessage(60_000);
  }, 60_000);
  afterAll(() => peer.kill());

  /** The pino lines the server has written to stderr, once `count` of them arrived. */
  async function logLines(count: number): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const lines = peer.stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      if (lines.length >= count || Date.now() > deadline) return lines;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  test('a line that is not JSON logs its rule at warn, and none of its bytes', async () => {
    peer.send(`{"text": "${SECRET}"\n`);
    await peer.nextMessage();
    expect(await logLines(1)).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'palisade.refusal',
        transport: 'stdio',
        rule: 'not-json',
        code: -32700,
      }),
    ]);
    expect(peer.stderr).not.toContain(SECRET);
  });

  test("a host fault logs the error's name and code, and not the input its message quotes", async () => {
    const before = (await logLines(0)).length;
    await peer.request(modern(2, 'tools/call', { name: 'fail', arguments: { text: SECRET } }));
    const lines = await logLines(before + 1);
    expect(lines.at(-1)).toMatchObject({
      level: 50,
      event: 'palisade.fault',
      transport: 'stdio',
      description: 'tool "fail" handler threw',
      error: { name: 'TypeError', code: 'E_FIXTURE' },
    });
    expect(peer.stderr).not.toContain(SECRET);
  });
});
