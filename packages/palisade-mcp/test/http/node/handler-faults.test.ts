/**
 * A failure inside the node handler, and a body taken before the handler saw it: answered 500 with
 * -32603 and reported to onFault with its cause, or, once the response has begun, the connection
 * cut instead of a second answer. Nothing of the fault reaches the client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../../src/http/node/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, LIST, mount, post } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const INTERNAL = { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' } };

/** The node handler mounted behind `before`, which runs first as a middleware would. */
async function mountBehind(
  options: Partial<HttpHandlerOptions>,
  before: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<number> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, ...options });
  const mounted = await closeLater(
    mount((req, res) => {
      before(req, res);
      handler(req, res);
    }),
  );
  return mounted.port;
}

/** As mountBehind, for a middleware that calls the handler only once it is `done`. */
async function mountBehindAsync(
  options: Partial<HttpHandlerOptions>,
  before: (req: IncomingMessage, done: () => void) => void,
): Promise<number> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, ...options });
  const mounted = await closeLater(mount((req, res) => before(req, () => handler(req, res))));
  return mounted.port;
}

describe('a failure inside the transport', () => {
  test('is answered 500 with -32603 and reported to onFault with its cause', async () => {
    const faults: Array<[string, unknown]> = [];
    const broken = new Error('a body getter that throws');
    const port = await mountBehind(
      { onFault: (description, cause) => faults.push([description, cause]) },
      (req) => {
        Object.defineProperty(req, 'body', {
          get: () => {
            throw broken;
          },
        });
      },
    );
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([['the HTTP transport failed while answering', broken]]);
    reply.client.end();
  });

  test('after the response has begun, cuts the connection instead of answering again', async () => {
    const port = await mountBehind({}, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('begun');
      Object.defineProperty(req, 'body', {
        get: () => {
          throw new Error('a body getter that throws');
        },
      });
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    await reply.client.closed;
    expect(reply.client.text()).not.toContain('Internal error');
  });
});

describe('a body taken before the handler saw it', () => {
  const CONSUMED =
    'the request body was consumed before palisade saw it: mount palisade before any body parser';

  test('a stream read to its end with no req.body left behind is answered 500 and reported', async () => {
    const faults: string[] = [];
    // A raw-body reader that keeps the bytes under a name of its own.
    const port = await mountBehindAsync(
      { onFault: (description) => faults.push(description), readTimeoutMs: 1_000 },
      (req, done) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          Object.assign(req, { rawBody: Buffer.concat(chunks) });
          done();
        });
      },
    );
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([CONSUMED]);
    reply.client.end();
  });

  test('a req.body set by a parser that left the stream unread is answered 500 and reported', async () => {
    const faults: string[] = [];
    // What a JSON body parser does to a request it skips: sets req.body to {} and reads nothing.
    const events: HttpLogEvent[] = [];
    const hooks = {
      onFault: (description: string) => faults.push(description),
      onLog: (event: HttpLogEvent) => events.push(event),
    };
    const port = await mountBehind(hooks, (req) => {
      Object.assign(req, { body: {} });
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([CONSUMED]);
    expect(events).toEqual([{ kind: 'refusal', rule: 'body-already-read', status: 500 }]);
    reply.client.end();
  });
});
