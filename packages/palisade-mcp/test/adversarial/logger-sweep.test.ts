/**
 * Adversarial: does any client byte reach the `logger`? One secret is planted in every place a
 * client controls (Authorization, Cookie, Host, Origin, the request target, Mcp-Name, an
 * Mcp-Param value, the body, the error a host throws quoting the input) and each refusal path of
 * both HTTP handlers is driven over a real socket. The logger records everything it is given;
 * the secret must appear in none of it, and every path must have been logged at all (a sweep
 * whose records were empty would pass for nothing).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { createServer, defineTool, type PalisadeLogger } from '../../src/index.js';
import { listenFetch } from '../support/fetch-peer.js';
import { exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const SECRET = 'SECRET-7f3a9c';
const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

function sweepServer() {
  return createServer({
    name: 'sweep',
    version: '1',
    tools: [
      defineTool<{ text: string; region?: string }>({
        name: 'quote',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } },
          required: ['text'],
        },
        handler: ({ text }) => {
          const error = new Error(`cannot use ${text}`) as Error & { code: string };
          error.code = 'E_HOST';
          throw error;
        },
      }),
    ],
  });
}

/** A logger that keeps every argument of every call. */
function recordingLogger(): { logger: PalisadeLogger; records: unknown[] } {
  const records: unknown[] = [];
  return {
    records,
    logger: {
      warn: (record, message) => records.push({ level: 'warn', record, message }),
      error: (record, message) => records.push({ level: 'error', record, message }),
      debug: (record, message) => records.push({ level: 'debug', record, message }),
    },
  };
}

/** The options: a logger only, so both refusals and faults go to it. */
function options(logger: PalisadeLogger): HttpHandlerOptions {
  return {
    authorize: (request) => {
      const auth = String(request.headers['authorization'] ?? '');
      if (auth === 'Bearer throw') throw new Error(`authorize saw ${String(request.headers['cookie'])}`);
      if (auth.includes('deny')) return { ok: false, status: 401 };
      return { ok: true };
    },
    authorizeBody: (_request, bytes) => {
      const text = Buffer.from(bytes).toString('utf8');
      if (text.includes('body-throw')) throw new Error(`authorizeBody saw ${text}`);
      return { ok: true };
    },
    allowedOrigins: ['http://app.example'],
    allowedHosts: ['127.0.0.1'],
    path: '/mcp',
    readTimeoutMs: 400,
    logger,
  };
}

const SECRET_HEADERS = { Authorization: `Bearer ${SECRET}`, Cookie: `sid=${SECRET}` };

function call(args: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const request = modernRequest(1, 'tools/call', { name: 'quote', arguments: args });
  return post(request.body, { ...request.headers, ...SECRET_HEADERS, ...extra });
}

/** Request bytes, each meant to end in a different refusal or fault. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  // A refused Host is the one client value a log names, cut to 64 characters: the secret sits past the cut.
  ['host not allowed', post('{}', { ...SECRET_HEADERS, Host: `${'h'.repeat(64)}${SECRET}.example` })],
  ['origin not allowed', post('{}', { ...SECRET_HEADERS, Origin: `http://${SECRET}.example` })],
  ['path not found', post('{}', SECRET_HEADERS).replace('POST /mcp ', `POST /${SECRET}?q=${SECRET} `)],
  ['method', post('', SECRET_HEADERS, 'PUT').replace('PUT /mcp ', `PUT /mcp?q=${SECRET} `)],
  ['GET probe', post('', SECRET_HEADERS, 'GET').replace('GET /mcp ', `GET /mcp?q=${SECRET} `)],
  ['authorize refuses', post('{}', { Authorization: `Bearer deny-${SECRET}` })],
  ['authorize throws', post('{}', { Authorization: 'Bearer throw', Cookie: `sid=${SECRET}` })],
  ['not acceptable', post('{}', { ...SECRET_HEADERS, Accept: `text/${SECRET}` })],
  ['media type', post('{}', { ...SECRET_HEADERS, 'Content-Type': `text/${SECRET}` })],
  ['too large', post('{}', { ...SECRET_HEADERS, 'Content-Length': '9999999999' })],
  ['read timeout', post('{}', { ...SECRET_HEADERS, 'Content-Length': '100' })],
  ['not json', post(`{"${SECRET}"`, SECRET_HEADERS)],
  ['repeated key', post(`{"${SECRET}":1,"${SECRET}":2}`, SECRET_HEADERS)],
  ['authorizeBody throws', post(`{"body-throw":"${SECRET}"}`, SECRET_HEADERS)],
  ['handler throws quoting its input', call({ text: SECRET })],
];

const HANDLERS = [
  ['node handler', (logger: PalisadeLogger) => mount(createHttpHandler(sweepServer(), options(logger)))],
  [
    'fetch handler',
    (logger: PalisadeLogger) => listenFetch(createFetchHandler(sweepServer(), options(logger))),
  ],
] as const;

/** A header that disagrees with the body: answered 400 -32020 by the core's answer path. */
const MISMATCHES: ReadonlyArray<readonly [string, string]> = [
  ['Mcp-Name mismatch', call({ text: 'x' }, { 'Mcp-Name': SECRET })],
  ['Mcp-Param mismatch', call({ text: 'x', region: 'us' }, { 'Mcp-Param-Region': SECRET })],
];

/** Drives `bytes` at a fresh handler and returns everything its logger was given. */
async function logged(
  start: (logger: PalisadeLogger) => Promise<Mounted>,
  bytes: string,
): Promise<unknown[]> {
  const { logger, records } = recordingLogger();
  const mounted = await start(logger);
  opened.push(mounted);
  const reply = await exchange(mounted.port, bytes);
  reply.client.end();
  // A fault is reported after its answer is written: give it a turn.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return records;
}

describe.each(HANDLERS)('the %s', (_name, start) => {
  test.each(CASES)('logs the refusal of a %s without any client byte', async (_label, bytes) => {
    const records = await logged(start, bytes);
    expect(records.length).toBeGreaterThan(0);
    expect(JSON.stringify(records)).not.toContain(SECRET);
  });

  test.each(MISMATCHES)('logs no client byte for a %s', async (_label, bytes) => {
    expect(JSON.stringify(await logged(start, bytes))).not.toContain(SECRET);
  });

  // Was a hole (observability): the -32020 header-mismatch refusal (answer.ts) was published on
  // palisade:http-refusal but never given to `onLog` / `logger`, unlike every other refusal the
  // transport answers (docs/http.md: `onLog` is "one line ... per refusal"), so a client probing
  // header smuggling left nothing in the host's log. Now one
  // `{ event: 'palisade.refusal', rule: 'header-mismatch', status: 400 }` record.
  test.each(MISMATCHES)(
    'logs the refusal of a %s as header-mismatch',
    { tags: ['threat-model'] },
    async (_label, bytes) => {
      expect(await logged(start, bytes)).toContainEqual(
        expect.objectContaining({
          record: expect.objectContaining({ event: 'palisade.refusal', rule: 'header-mismatch' }),
        }),
      );
    },
  );
});

test('the sweep sees a secret the host itself writes into its reason (control)', async () => {
  // `reason` is the host's own text and is logged as it is: it shows the check above can fail.
  const start = (logger: PalisadeLogger) =>
    mount(
      createHttpHandler(sweepServer(), {
        ...options(logger),
        authorize: (request) => ({
          ok: false,
          status: 401,
          reason: String(request.headers['authorization']),
        }),
      }),
    );
  expect(JSON.stringify(await logged(start, post('{}', SECRET_HEADERS)))).toContain(SECRET);
});
