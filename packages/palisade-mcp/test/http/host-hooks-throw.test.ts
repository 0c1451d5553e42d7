/**
 * A host's reporting hooks (`onFault`, `onLog`, a `logger`) are its own code, and may throw. What
 * they report has already happened: a hook that throws must not turn a written refusal or a
 * host fault's -32603 into a crash, a rejected promise or a request left hanging.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

const THROWS = modernRequest(1, 'tools/call', { name: 'throws', arguments: {} });
const LIST = modernRequest(2, 'tools/list');
const hookThrows = (): never => {
  throw new Error('the host hook failed');
};

afterEach(async () => {
  vi.restoreAllMocks();
});

/** What this process writes to stderr from here on (the servers under test run in it). */
function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('the node handler', () => {
  test('a tool that throws is answered -32603 (200, the method’s stage) when onFault throws too, and the next request is answered', {
    tags: ['threat-model'],
  }, async () => {
    const stderr = captureStderr();
    const mounted = await closeLater(
      mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, onFault: hookThrows })),
    );
    const failed = await exchange(mounted.port, post(THROWS.body, THROWS.headers));
    expect(failed.status).toBe(200);
    expect(JSON.parse(failed.body)).toMatchObject({ id: 1, error: { code: -32603 } });
    const next = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(next.status).toBe(200);
    expect(stderr).toEqual(["palisade: the host's onFault threw; what it was given is dropped\n"]);
  });

  test('a refusal is written when onLog throws, and the next request is answered', {
    tags: ['threat-model'],
  }, async () => {
    const stderr = captureStderr();
    const mounted = await closeLater(
      mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, onLog: hookThrows })),
    );
    const refused = await exchange(
      mounted.port,
      post(LIST.body, { ...LIST.headers, Origin: 'http://evil.example' }),
    );
    expect(refused.status).toBe(403);
    const next = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(next.status).toBe(200);
    expect(stderr).toEqual(["palisade: the host's onLog threw; what it was given is dropped\n"]);
  });
});

describe('the fetch handler', () => {
  const request = (body: string, headers: Record<string, string | number>): Request =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      body,
      headers: Object.fromEntries(
        Object.entries({ 'content-type': 'application/json', accept: 'application/json', ...headers }).map(
          ([name, value]) => [name, String(value)],
        ),
      ),
    });

  test('a tool that throws is answered -32603 (200, the method’s stage) when onFault throws too', {
    tags: ['threat-model'],
  }, async () => {
    const handler = createFetchHandler(basicServer(), { ...ADMIT_ALL, onFault: hookThrows });
    const response = await handler(request(THROWS.body, THROWS.headers as Record<string, string>));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32603 } });
  });

  test('a refusal is returned when onLog throws', { tags: ['threat-model'] }, async () => {
    const handler = createFetchHandler(basicServer(), { ...ADMIT_ALL, onLog: hookThrows });
    const response = await handler(
      request(LIST.body, { ...(LIST.headers as Record<string, string>), origin: 'http://evil.example' }),
    );
    expect(response.status).toBe(403);
  });
});
