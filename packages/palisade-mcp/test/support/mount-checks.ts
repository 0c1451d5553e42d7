/** Checks every mount test makes the same way, whatever the framework in front of the handler. */
import { expect } from 'vitest';
import { exchange, modernRequest, post } from './http-peer.js';

/** A tools/call of `echo` through the mount is answered 200 with the tool's result. */
export async function expectEchoAnswered(port: number): Promise<void> {
  const call = modernRequest(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  const reply = await exchange(port, post(call.body, call.headers));
  expect(reply.status).toBe(200);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(JSON.parse(reply.body)).toMatchObject({
    id: 2,
    result: { content: [{ type: 'text', text: 'hi' }] },
  });
  reply.client.end();
}

/** What `onFault` is told when a body parser in front took the stream. */
export const BODY_CONSUMED =
  'the request body was consumed before palisade saw it: mount palisade before any body parser';
