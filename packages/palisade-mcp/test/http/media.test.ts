import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { indexHeaders } from '../../src/http/headers/values.js';
import { acceptVerdict, COMMON_ACCEPT, readAccept } from '../../src/http/media.js';
import { exchange, LIST, type Mounted, mountHandler, post } from '../support/http-peer.js';

let mounted: Mounted;

beforeAll(async () => {
  mounted = await mountHandler();
});

afterAll(async () => {
  await mounted.close();
});

async function statusFor(headers: Record<string, string>): Promise<number> {
  const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, ...headers }));
  reply.client.end();
  if (reply.status === 200) expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: {} });
  return reply.status;
}

const refused406 = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Invalid request: Accept must admit application/json' },
};

describe('readAccept', () => {
  it('gives each common Accept value the verdict the full parse gives it', () => {
    for (const [value, verdict] of COMMON_ACCEPT) {
      expect(acceptVerdict([value])).toEqual(verdict);
      expect(readAccept(indexHeaders(['Accept', value]))).toEqual(verdict);
    }
  });

  it('parses a common value spelled in another case or repeated in full', () => {
    expect(readAccept(indexHeaders(['Accept', 'TEXT/Event-Stream;q=0, application/json']))).toEqual({
      json: true,
      eventStream: false,
    });
    expect(readAccept(indexHeaders(['Accept', 'application/json', 'Accept', 'text/event-stream']))).toEqual({
      json: true,
      eventStream: true,
    });
  });
});

describe('Accept ranges that do not cover application/json are refused 406', () => {
  test.each([
    // Same type, other subtype: both halves of the exact match have to hold.
    ['application/xml'],
    // Same subtype, other type.
    ['text/json'],
    // A subtype wildcard covers its own type only.
    ['image/*'],
    // A type wildcard is only meaningful as `*/*`.
    ['*/xml'],
    // Three segments is no media range at all, not `application/json` with something after it.
    ['application/json/x'],
    // An empty type or subtype names no type: neither `*/*` nor `application/*`.
    ['/json'],
    ['application/'],
    ['*/'],
    ['/*'],
  ])('Accept: %s', async (accept) => {
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Accept: accept }));
    reply.client.end();
    expect(reply.status).toBe(406);
    expect(JSON.parse(reply.body)).toEqual(refused406);
  });
});

describe('Accept values the full parse admits', () => {
  test('a range without a subtype is skipped and the ranges after it still count', async () => {
    expect(await statusFor({ Accept: 'json, application/json' })).toBe(200);
  });

  test('whitespace around the slash of a range is not part of its type or subtype', async () => {
    expect(await statusFor({ Accept: 'application /json' })).toBe(200);
    expect(await statusFor({ Accept: 'application/ json' })).toBe(200);
  });

  test('a q-value followed by whitespace before the comma is read as written', async () => {
    expect(await statusFor({ Accept: 'application/json;q=0.5 , text/event-stream' })).toBe(200);
  });

  test('a parameter with no `=` is not a q-value, even when it is spelled q', async () => {
    expect(await statusFor({ Accept: 'application/json;q , text/event-stream' })).toBe(200);
  });

  test('a more specific range decides over an earlier wildcard that refuses', async () => {
    expect(await statusFor({ Accept: '*/*;q=0, application/json' })).toBe(200);
  });

  test('of two equally specific ranges the first one decides', async () => {
    expect(await statusFor({ Accept: 'application/json, application/json;q=0' })).toBe(200);
  });
});

describe('q-values in Accept', () => {
  test('q=0 after whitespace following the semicolon excludes the range', async () => {
    expect(await statusFor({ Accept: 'application/json; q=0' })).toBe(406);
  });
});

describe('Content-Type', () => {
  test('whitespace before the parameters is not part of the type', async () => {
    expect(await statusFor({ 'Content-Type': 'application/json ; charset=utf-8' })).toBe(200);
  });

  test('an empty Content-Type line is refused 415, as no type at all', async () => {
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, 'Content-Type': '' }));
    reply.client.end();
    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Content-Type must be application/json' },
    });
  });
});
