/**
 * A hostile server, over real sockets: every way it answers wrong is a named error on that call,
 * no more than the bound is held, and the next call on the same client succeeds. Nothing leaves
 * for an address the server points at.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, createClient, httpTransport } from '../src/index.js';
import { type Hostile, type Mode, startHostile } from './support/hostile.js';

let hostile: Hostile;
let client: Client;
const lookups: string[] = [];

beforeAll(async () => {
  hostile = await startHostile();
  client = createClient({
    transport: httpTransport(hostile.url, {
      // Short, so the drip and the silence are cut quickly; long enough that on a loaded machine
      // the 1 MiB of an endless event arrives before either deadline.
      sseIdleMs: 1_000,
      sseEventMs: 2_000,
      resolver: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    }),
  });
  await client.connect();
});

afterAll(async () => {
  await client.close();
  await hostile.close();
});

async function refusal(mode: Mode): Promise<unknown> {
  hostile.mode = mode;
  const error = await client.callTool('probe').then(
    () => undefined,
    (e: unknown) => e,
  );
  hostile.mode = 'honest';
  // The client is still usable: the next call on it succeeds.
  expect((await client.callTool('probe')).content).toEqual([{ type: 'text', text: 'ok' }]);
  return error;
}

describe('a hostile server gets a named error on that call, and the client goes on', () => {
  test.each([
    ['too-large', 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED', 'too-large'],
    ['too-large-chunked', 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED', 'too-large'],
    ['cut-short', 'PALISADE_CLIENT_ERR_TRANSPORT', undefined],
    ['too-deep', 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED', 'too-deep'],
    ['repeated-key', 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED', 'repeated-key'],
    ['invalid-utf8', 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED', 'invalid-utf8'],
    ['sse-flood', 'PALISADE_CLIENT_ERR_SSE_REFUSED', 'too-many-events'],
    ['endless-event', 'PALISADE_CLIENT_ERR_SSE_REFUSED', 'event-too-large'],
    ['endless-line', 'PALISADE_CLIENT_ERR_SSE_REFUSED', 'line-too-long'],
    ['drip', 'PALISADE_CLIENT_ERR_SSE_REFUSED', 'event-deadline'],
    ['silent', 'PALISADE_CLIENT_ERR_SSE_REFUSED', 'idle'],
    ['html', 'PALISADE_CLIENT_ERR_CONTENT_TYPE', 'content-type'],
    ['wrong-shape', 'PALISADE_CLIENT_ERR_RESULT_INVALID', 'result-shape'],
  ] as const)('%s is refused as %s (%s)', { tags: ['threat-model'] }, async (mode, code, rule) => {
    const error = await refusal(mode);
    expect(error).toMatchObject({ code, rule });
    // No byte of the server's answer is quoted back.
    expect((error as Error).message).not.toMatch(/yyyy|zzzz|xxxx|<html>/);
  });

  test('a 307 to the cloud metadata address is refused and nothing is sent there', {
    tags: ['threat-model'],
  }, async () => {
    const before = lookups.length;
    const error = await refusal('redirect-metadata');
    expect(error).toMatchObject({
      code: 'PALISADE_CLIENT_ERR_REDIRECT_REFUSED',
      rule: 'cross-origin',
      status: 307,
    });
    expect(lookups.length).toBe(before);
  });

  test('a 1 MiB + 1 body is refused by the bound, before it is decoded', async () => {
    const error = await refusal('too-large');
    expect((error as Error).message).toContain('1048576');
  });
});
