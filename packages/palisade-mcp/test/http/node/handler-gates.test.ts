import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  exchange,
  type Mounted,
  modernRequest,
  mountHandler,
  post,
  refusalBody,
} from '../../support/http-peer.js';

const TOOLS_LIST = modernRequest(1, 'tools/list');

describe('the checks before the body is read', () => {
  let mounted: Mounted;
  beforeAll(async () => {
    mounted = await mountHandler();
  });
  afterAll(async () => {
    await mounted.close();
  });

  test('a request passing every check is answered 200 with application/json', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(mounted.port, post(TOOLS_LIST.body, TOOLS_LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 200 OK');
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', id: 1 });
    reply.client.end();
  });

  test('a Host not on the list is answered 421 with -32600 and the connection is closed', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Host: 'evil.example' }),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 421 Misdirected Request');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: Host not allowed'));
    await reply.client.closed;
  });

  test('a Host on the list is admitted whatever its port and letter case', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Host: 'LocalHost:1' }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test('a bracketed [::1] Host matches the listed ::1', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Host: '[::1]:8080' }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test('two Host lines are answered 400 even when both are allowed', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Host: ['127.0.0.1', 'localhost'] }),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: more than one Host header'));
    reply.client.end();
  });

  test('a request without Origin is admitted', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(mounted.port, post(TOOLS_LIST.body, TOOLS_LIST.headers));
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test('a listed Origin is admitted in any letter case', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Origin: 'HTTP://App.Example' }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test('an Origin not on the list is answered 403 with no id', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Origin: 'http://127.0.0.1' }),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: Origin not allowed'));
    reply.client.end();
  });

  test('two Origin lines that disagree are answered 403 even when the first is listed', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Origin: ['http://app.example', 'http://evil.example'] }),
    );
    expect(reply.status).toBe(403);
    reply.client.end();
  });

  test.each(['HTTP/2.0', 'HTTP/0.9'])(
    'an HTTP/1 request line claiming %s is answered 505 and closed, and never served as HTTP/2',
    { tags: ['threat-model'] },
    async (version) => {
      const reply = await exchange(
        mounted.port,
        post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Host: 'evil.example' }).replace(
          'POST /mcp HTTP/1.1',
          `POST /mcp ${version}`,
        ),
      );
      expect(reply.status).toBe(505);
      expect(JSON.parse(reply.body)).toEqual(
        refusalBody(-32600, 'Invalid request: HTTP version not supported'),
      );
      await reply.client.closed;
    },
  );

  test.each(['GET', 'DELETE', 'PUT'])(
    '%s is answered 405 with Allow: POST',
    { tags: ['threat-model'] },
    async (method) => {
      const reply = await exchange(mounted.port, post('', {}, method));
      expect(reply.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(reply.headers['allow']).toBe('POST');
      expect(reply.headers['connection']).toBe('close');
      reply.client.end();
    },
  );

  test.each([
    'application/json',
    'application/*',
    '*/*',
    'text/html;q=0.5, application/json;q=0.1',
    'APPLICATION/JSON; charset=utf-8',
  ])('Accept %s admits JSON', { tags: ['threat-model'] }, async (accept) => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Accept: accept }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test.each(['text/event-stream', 'text/html', 'application/json;q=0', 'application/json;q=0, */*'])(
    'Accept %s is answered 406',
    { tags: ['threat-model'] },
    async (accept) => {
      const reply = await exchange(
        mounted.port,
        post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, Accept: accept }),
      );
      expect(reply.statusLine).toBe('HTTP/1.1 406 Not Acceptable');
      expect(JSON.parse(reply.body)).toEqual(
        refusalBody(-32600, 'Invalid request: Accept must admit application/json'),
      );
      reply.client.end();
    },
  );

  test('Content-Type application/json with a charset parameter is admitted', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, 'Content-Type': 'Application/JSON; charset=utf-8' }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx'])(
    'Content-Type %s is answered 415',
    { tags: ['threat-model'] },
    async (type) => {
      const reply = await exchange(
        mounted.port,
        post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, 'Content-Type': type }),
      );
      expect(reply.statusLine).toBe('HTTP/1.1 415 Unsupported Media Type');
      expect(JSON.parse(reply.body)).toEqual(
        refusalBody(-32600, 'Invalid request: Content-Type must be application/json'),
      );
      reply.client.end();
    },
  );

  test('a missing Content-Type is answered 415', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post(TOOLS_LIST.body, { ...TOOLS_LIST.headers, 'Content-Type': undefined }),
    );
    expect(reply.status).toBe(415);
    reply.client.end();
  });

  test('a chunked body is answered 411 before any of it is read', { tags: ['threat-model'] }, async () => {
    const head = post('', {
      ...TOOLS_LIST.headers,
      'Content-Length': undefined,
      'Transfer-Encoding': 'chunked',
    });
    const reply = await exchange(mounted.port, head);
    expect(reply.statusLine).toBe('HTTP/1.1 411 Length Required');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: Transfer-Encoding is not accepted; send Content-Length'),
    );
    await reply.client.closed;
  });

  test('a POST without Content-Length is answered 411', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(
      mounted.port,
      post('', { ...TOOLS_LIST.headers, 'Content-Length': undefined }),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 411 Length Required');
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: Content-Length is required'),
    );
    reply.client.end();
  });

  test('a Content-Length of 1,048,577 is answered 413 before any body byte is sent', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(
      mounted.port,
      post('', { ...TOOLS_LIST.headers, 'Content-Length': 1_048_577 }),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: message exceeds 1048576 bytes'),
    );
    await reply.client.closed;
  });
});
