/**
 * What Palisade refuses that the official SDK admits, measured: the same hostile requests, byte for
 * byte, sent over a raw socket to Palisade's `serve()` and to the SDK v2 stateless server
 * (`createMcpHandler`, with the Host and Origin guards its README puts in front), both serving the
 * same `echo` tool (bench/http/servers.ts, the contenders of `npm run bench:http`). The table in
 * docs/comparison.md is checked here row by row against what each server actually answered, and
 * the README's section "Palisade and the official SDK, side by side" must name exactly the requests
 * only the SDK runs, so the comparison cannot drift from the code on either side.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MODERN_META } from '../../../../bench/http/requests.ts';
import { type Started, start } from '../../../../bench/http/servers.ts';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, Gate } from '../../../../bench/http/tools.ts';
import { serve } from '../../src/http/node/index.js';
import { createServer, defineTool } from '../../src/index.js';

const README = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');
const PAGE = readFileSync(fileURLToPath(new URL('../../../../docs/comparison.md', import.meta.url)), 'utf8');

/** The README's section under `heading`, to the next `## `, with its line breaks folded to spaces. */
function readmeSection(heading: string): string {
  const start = README.indexOf(`\n${heading}`);
  if (start === -1) throw new Error(`the README has no "${heading}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end).replace(/\s+/g, ' ');
}

interface Vector {
  /** The README row's first cell. */
  readonly name: string;
  /** Header lines replacing or adding to the defaults (a `null` value drops that header). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The body; by default a well-formed 2026-07-28 echo call. */
  readonly body?: Buffer;
}

const echoBody = (argumentsText: string, extra = ''): string =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${argumentsText},"_meta":${JSON.stringify(MODERN_META)}${extra}}}`;

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const VECTORS: readonly Vector[] = [
  { name: 'a well-formed call (control)' },
  { name: 'a repeated key (`"text"` twice)', body: Buffer.from(echoBody('{"text":"a","text":"b"}')) },
  {
    name: 'nesting 65 levels deep (in `_meta`)',
    body: Buffer.from(echoBody('{"text":"a"}').replace('"_meta":{', `"_meta":{"x":${nested(64)},`)),
  },
  {
    name: 'a 2 MiB body',
    body: Buffer.from(
      echoBody('{"text":"a"}').replace('"_meta":{', `"_meta":{"pad":"${'x'.repeat(2_097_152)}",`),
    ),
  },
  {
    name: 'invalid UTF-8 in a string',
    body: Buffer.concat([
      Buffer.from(echoBody('{"text":"a#"}').split('#')[0] ?? ''),
      Buffer.from([0xff]),
      Buffer.from(echoBody('{"text":"a#"}').split('#')[1] ?? ''),
    ]),
  },
  { name: 'an unpaired surrogate (`"\\ud800"`)', body: Buffer.from(echoBody('{"text":"\\ud800"}')) },
  { name: 'an `id` of `1.5`', body: Buffer.from(echoBody('{"text":"a"}').replace('"id":1', '"id":1.5')) },
  {
    name: 'an unknown top-level member',
    body: Buffer.from(echoBody('{"text":"a"}').replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","extra":true')),
  },
  { name: '`Mcp-Name` disagreeing with the body', headers: { 'Mcp-Name': 'other' } },
  { name: '`Mcp-Method` disagreeing with the body', headers: { 'Mcp-Method': 'tools/list' } },
  { name: 'a `Host` of another site (DNS rebinding)', headers: { Host: 'attacker.example' } },
  { name: 'an `Origin` of another site', headers: { Origin: 'https://attacker.example' } },
  { name: '`Content-Type: text/plain` (no CORS preflight)', headers: { 'Content-Type': 'text/plain' } },
];

interface Answer {
  readonly status: number;
  /** The handler ran and its echo came back as a successful result. */
  readonly admitted: boolean;
  readonly code: number | undefined;
}

function exchange(port: number, vector: Vector): Promise<Answer> {
  const body = vector.body ?? Buffer.from(echoBody('{"text":"a"}'));
  const headers: Record<string, string | null> = {
    Host: `127.0.0.1:${port}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Content-Length': String(body.length),
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'echo',
    Connection: 'close',
    ...vector.headers,
  };
  const head = Object.entries(headers)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name}: ${value}`);
  const bytes = Buffer.concat([
    Buffer.from(`POST /mcp HTTP/1.1\r\n${head.join('\r\n')}\r\n\r\n`, 'latin1'),
    body,
  ]);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined); // a server that stops reading mid-body resets us: the answer is already in
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (status === 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headEnd = text.indexOf('\r\n\r\n');
      const raw = text.slice(headEnd + 4);
      const payload = /^transfer-encoding: *chunked/im.test(text.slice(0, headEnd)) ? dechunk(raw) : raw;
      // An SSE answer carries the JSON-RPC message on a `data:` line.
      const json = /^data: (.*)$/m.exec(payload)?.[1] ?? payload;
      let message: { result?: { isError?: boolean; content?: unknown }; error?: { code?: number } } = {};
      try {
        message = JSON.parse(json);
      } catch {
        // a non-JSON body (a chunked or plain-text refusal) is no result
      }
      resolve({
        status,
        admitted: status === 200 && message.result?.content !== undefined && message.result.isError !== true,
        code: message.error?.code,
      });
    });
    socket.write(bytes);
  });
}

/** The body of a `Transfer-Encoding: chunked` answer (an SSE stream is sent that way). */
function dechunk(raw: string): string {
  let body = '';
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

function cell(answer: Answer): string {
  if (answer.admitted) return 'admitted: the tool ran';
  return `refused: ${answer.status}${answer.code === undefined ? '' : ` \`${answer.code}\``}`;
}

let palisade: Started;
let sdk: Started;
const settings = { maxConnections: 1_024, readTimeoutMs: 15_000 };

/** Palisade as the README's quick start serves it: no browser origin allowed, Host checked against loopback. */
async function startPalisade(): Promise<Started> {
  const server = createServer({
    name: 'side-by-side',
    version: '1.0.0',
    tools: [
      defineTool<{ text: string }>({
        name: 'echo',
        description: ECHO_DESCRIPTION,
        inputSchema: ECHO_SCHEMA,
        handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
      }),
    ],
  });
  const serving = await serve(server, {
    authorize: () => ({ ok: true }),
    allowedOrigins: [],
    onLog: () => {},
  });
  return { port: serving.port, close: serving.close };
}

beforeAll(async () => {
  palisade = await startPalisade();
  sdk = await start('sdk-modern', new Gate(), settings);
});

afterAll(async () => {
  await palisade.close();
  await sdk.close();
});

describe('Palisade and the official SDK v2, the same bytes to each', () => {
  const measured: string[] = [];

  test.each(VECTORS)(
    'the docs/comparison.md row for "$name" is what each server answered',
    async (vector) => {
      const row = `| ${vector.name} | ${cell(await exchange(palisade.port, vector))} | ${cell(await exchange(sdk.port, vector))} |`;
      measured.push(row);
      // SIDE_BY_SIDE_PRINT=1 prints the measured rows, to paste into the page when a side changes.
      if (process.env['SIDE_BY_SIDE_PRINT'] !== undefined) process.stderr.write(`${row}\n`);
      expect(PAGE).toContain(row);
    },
  );

  test('the README names every request where only the SDK runs the tool, and no other', () => {
    expect(measured).toHaveLength(VECTORS.length);
    const onlySdkRuns = (row: string): boolean =>
      row.includes('| refused:') && row.endsWith('| admitted: the tool ran |');
    const section = readmeSection('## Palisade and the official SDK');
    const named = VECTORS.slice(1).filter((vector) => section.includes(vector.name));
    expect(named.map((vector) => vector.name)).toEqual(
      VECTORS.filter((_, index) => onlySdkRuns(measured[index] ?? '')).map((vector) => vector.name),
    );
  });

  test('the control row is admitted by both, so a refusal in another row is the vector, not the setup', async () => {
    const control = VECTORS[0] as Vector;
    expect((await exchange(palisade.port, control)).admitted).toBe(true);
    expect((await exchange(sdk.port, control)).admitted).toBe(true);
  });
});
