/**
 * What the HTTP transport does with a message its encoder refuses (a BigInt in a result's `_meta`,
 * which the host fills and Palisade sends as it is; a BigInt in a log's data): over a real
 * socket, the response is -32603 under its id, a notification is dropped, and the host's
 * `onFault` hears why. Nothing of the host's value reaches the client.
 */
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

async function serve(faults: Array<[string, unknown]>): Promise<Mounted> {
  const server = createServer({
    name: 'unencodable',
    version: '1',
    tools: [
      defineTool({
        name: 'meta_bigint',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [], _meta: { big: 10n } }) as never,
      }),
      defineTool({
        name: 'log_bigint',
        inputSchema: { type: 'object' },
        handler: async (_args, ctx) => {
          ctx.log('info', { big: 10n } as never);
          ctx.log('info', 'plain');
          await Promise.resolve();
          return { content: [{ type: 'text', text: 'logged' }] };
        },
      }),
    ],
  });
  const handler = createHttpHandler(server, {
    ...ADMIT_ALL,
    onFault: (description, cause) => faults.push([description, cause]),
  });
  const mounted = await closeLater(mount(handler));
  return mounted;
}

describe('messages the encoder refuses, over HTTP', () => {
  test('a response that cannot be serialized is answered -32603 under its id, and the host hears why', async () => {
    const faults: Array<[string, unknown]> = [];
    const { port } = await serve(faults);
    const call = modernRequest(7, 'tools/call', { name: 'meta_bigint' });
    const reply = await exchange(port, post(call.body, { ...call.headers, Accept: 'application/json' }));
    reply.client.end();
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error"}}');
    expect(faults).toEqual([['a response could not be serialized: the value holds a BigInt', undefined]]);
  });

  test('a notification that cannot be serialized is left out of the stream, and the host hears why', async () => {
    const faults: Array<[string, unknown]> = [];
    const { port } = await serve(faults);
    const call = modernRequest(8, 'tools/call', {
      name: 'log_bigint',
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    const reply = await exchange(port, post(call.body, call.headers));
    reply.client.end();
    expect(reply.headers['content-type']).toBe('text/event-stream');
    // The body is chunked; its events' data lines, in order, are what the client reads.
    expect(reply.body.match(/^data: .*$/gm)).toEqual([
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"plain"}}',
      expect.stringMatching(
        /^data: \{"jsonrpc":"2\.0","id":8,"result":\{"content":\[\{"type":"text","text":"logged"\}\]/,
      ),
    ]);
    expect(faults).toEqual([['a notification could not be serialized: the value holds a BigInt', undefined]]);
  });
});
