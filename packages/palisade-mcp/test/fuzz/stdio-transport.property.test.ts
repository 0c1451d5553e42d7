import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/index.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { catalogs } from '../fixtures/catalogs.js';
import { concat, split } from '../support/chunks.js';
import { modern } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const server = createServer(catalogs['basic']!());

interface Sent {
  readonly id: number | string;
  readonly check: (reply: Json) => void;
}

type Item = { readonly kind: 'request'; readonly build: (id: number | string) => [Json, Sent] } | Garbage;
interface Garbage {
  readonly kind: 'garbage';
  readonly bytes: Uint8Array;
}

const echo = fc.string({ unit: 'binary', maxLength: 40 }).map(
  (text): Item => ({
    kind: 'request',
    build: (id) => [
      modern(id, 'tools/call', { name: 'echo', arguments: { text } }),
      {
        id,
        check: (reply) => expect(reply['result']).toMatchObject({ content: [{ type: 'text', text }] }),
      },
    ],
  }),
);
const list = fc.constant<Item>({
  kind: 'request',
  build: (id) => [
    modern(id, 'tools/list'),
    {
      id,
      check: (reply) =>
        expect((reply['result'] as Json)['tools']).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: 'echo' })]),
        ),
    },
  ],
});
/** A request the revision does not define is still answered, under its id, by name. */
const unknown = fc.constantFrom('ping', 'tools/unknown', 'constructor').map(
  (method): Item => ({
    kind: 'request',
    build: (id) => [
      modern(id, method),
      { id, check: (reply) => expect(reply['error']).toEqual({ code: -32601, message: 'Method not found' }) },
    ],
  }),
);

/** A line no JSON reader accepts: one refusal each, with no id, and it must not disturb the next line. */
const garbage = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 40 }),
    fc
      .constantFrom('{', '{"jsonrpc":"2.0","id":1', '[', 'null,', '{"a":1,"a":2', '\u00ff', '{}}')
      .map((text) => encoder.encode(text)),
  )
  .map((bytes) => bytes.map((byte) => (byte === 0x0a ? 0x7b : byte)))
  .filter((bytes) => {
    if (bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) return false;
    if (/^content-length:/i.test(Buffer.from(bytes.subarray(0, 15)).toString('latin1'))) return false;
    try {
      JSON.parse(strictDecoder.decode(bytes));
      return false;
    } catch {
      return true;
    }
  })
  .map((bytes): Item => ({ kind: 'garbage', bytes }));

const eol = fc.constantFrom('\n', '\r\n');
const blank = fc.constantFrom('', '', '\n', '\r\n', ' \n');

/** Feeds `chunks` to a stdio transport, waits for `expected` replies, then ends input; every reply. */
async function converse(chunks: readonly Uint8Array[], expected: number): Promise<Json[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  let waiting: (() => void) | undefined;
  output.setEncoding('utf8');
  output.on('data', (piece: string) => {
    text += piece;
    waiting?.();
  });
  const handle = serveStdio(server, { input, output, exitOnClose: false, onFault: () => {} });
  for (const chunk of chunks) input.write(chunk);
  const deadline = Date.now() + 10_000;
  while (text.split('\n').length - 1 < expected && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      waiting = resolve;
      setTimeout(resolve, 50);
    });
  }
  // One more turn for anything the transport might still (wrongly) write.
  await new Promise((resolve) => setImmediate(resolve));
  input.end();
  await handle.closed;
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Json);
}

const stream = (items: fc.Arbitrary<Item>) =>
  fc.array(fc.tuple(items, eol, blank, fc.boolean()), { minLength: 1, maxLength: 16 }).map((parts) => {
    const sent: Sent[] = [];
    let garbageLines = 0;
    const bytes = concat(
      parts.flatMap(([item, end, gap, stringId], index) => {
        if (item.kind === 'garbage') {
          garbageLines += 1;
          return [encoder.encode(gap), item.bytes, encoder.encode(end)];
        }
        const [message, expectation] = item.build(stringId ? `s${index}` : index);
        sent.push(expectation);
        return [encoder.encode(gap), encoder.encode(JSON.stringify(message) + end)];
      }),
    );
    return { bytes, sent, garbageLines };
  });

const cuts = fc.array(fc.nat(), { maxLength: 24 });

function expectAnswered(replies: readonly Json[], sent: readonly Sent[], garbageLines: number): void {
  const withId = replies.filter((reply) => reply['id'] !== null && reply['id'] !== undefined);
  // No lost and no invented reply: exactly one per request, under its id.
  expect(withId.map((reply) => reply['id']).sort()).toEqual(sent.map((request) => request.id).sort());
  for (const request of sent) request.check(withId.find((reply) => reply['id'] === request.id)!);
  const refusals = replies.filter((reply) => reply['id'] === null || reply['id'] === undefined);
  expect(refusals).toHaveLength(garbageLines);
  for (const refusal of refusals) expect([-32700, -32600]).toContain((refusal['error'] as Json)['code']);
}

describe('stdio transport properties', () => {
  it('answers every request of a valid stream exactly once, however the stream is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(stream(fc.oneof(echo, list, unknown)), cuts, async ({ bytes, sent }, at) => {
        expectAnswered(await converse(split(bytes, at), sent.length), sent, 0);
      }),
      { numRuns: 40 },
    );
  });

  it('answers a valid stream pushed one byte at a time', async () => {
    await fc.assert(
      fc.asyncProperty(stream(fc.oneof(echo, list, unknown)), async ({ bytes, sent }) => {
        const bytewise = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
        expectAnswered(await converse(bytewise, sent.length), sent, 0);
      }),
      { numRuns: 10 },
    );
  });

  it('refuses each garbage line once and still answers every good line after it', async () => {
    await fc.assert(
      fc.asyncProperty(
        stream(fc.oneof(echo, list, unknown, garbage, garbage)),
        cuts,
        async ({ bytes, sent, garbageLines }, at) => {
          expectAnswered(await converse(split(bytes, at), sent.length + garbageLines), sent, garbageLines);
        },
      ),
      { numRuns: 40 },
    );
  });
});
