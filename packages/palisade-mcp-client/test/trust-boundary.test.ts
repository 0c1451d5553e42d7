/**
 * The outbound trust boundary and the target policy: declared origins, credential stripping with
 * one loud warning per origin, consent in four explicit expiry forms with every other path
 * failing closed, and resolved addresses judged and pinned.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import {
  ClientError,
  type ClientWarning,
  classifyAddress,
  createClient,
  httpTransport,
} from '../src/index.js';
import { CREDENTIAL_HEADERS, TrustBoundary } from '../src/trust/boundary.js';
import { ConsentCache, type ConsentHandler, remainingSeconds } from '../src/trust/consent.js';
import { originMatcher } from '../src/trust/origins.js';

function boundary(
  consent: ConsentHandler,
  warnings: ClientWarning[] = [],
  trusted = ['localhost'],
): TrustBoundary {
  return new TrustBoundary({
    matcher: originMatcher(trusted),
    consent: new ConsentCache(consent),
    credentialHeaders: [...CREDENTIAL_HEADERS, 'x-tenant-key'],
    warn: (warning) => warnings.push(warning),
  });
}

const CREDENTIALS = {
  Authorization: 'Bearer secret',
  Cookie: 'a=b',
  'X-Api-Key': 'k',
  'X-Auth-Token': 't',
  'X-CSRF-Token': 'c',
  'X-Tenant-Key': 'tenant',
  'X-Request-Id': 'kept',
};

describe('trustedOrigins', () => {
  test('a host entry trusts every scheme and port, a *. entry every subdomain but not the apex', () => {
    const match = originMatcher(['localhost', '*.example.com', '::1']);
    expect(match.trusts(new URL('http://localhost:8080/mcp'))).toBe(true);
    expect(match.trusts(new URL('https://a.b.example.com/mcp'))).toBe(true);
    expect(match.trusts(new URL('https://example.com/mcp'))).toBe(false);
    expect(match.trusts(new URL('https://evilexample.com/mcp'))).toBe(false);
    expect(match.trusts(new URL('http://[::1]:3000/mcp'))).toBe(true);
  });

  test('an origin entry trusts that scheme, host and port only', () => {
    const match = originMatcher(['https://mcp.example.com']);
    expect(match.trusts(new URL('https://MCP.example.com:443/x'))).toBe(true);
    expect(match.trusts(new URL('http://mcp.example.com/x'))).toBe(false);
    expect(match.trusts(new URL('https://mcp.example.com:8443/x'))).toBe(false);
  });

  test('userinfo in a URL makes it untrusted, and a file: URI is trusted only when file:// is declared', () => {
    expect(originMatcher(['localhost']).trusts(new URL('http://user:pw@localhost/'))).toBe(false);
    expect(originMatcher(['localhost']).trusts(new URL('file:///etc/passwd'))).toBe(false);
    expect(originMatcher(['file://']).trusts(new URL('file:///etc/passwd'))).toBe(true);
  });

  test('an entry with a path, a query, userinfo or a misplaced wildcard is refused at construction, naming it', () => {
    for (const entry of [
      'https://a.example/mcp',
      'https://a.example?x',
      'https://u@a.example',
      'a.*.example',
      '*',
      '',
    ]) {
      expect(() => originMatcher(['localhost', entry])).toThrow(
        expect.objectContaining({
          code: 'PALISADE_CLIENT_ERR_INVALID_OPTION',
          message: expect.stringContaining('trustedOrigins[1]'),
        }),
      );
    }
  });
});

describe('credential stripping', () => {
  test('a trusted origin keeps every header and never asks for consent', async () => {
    let asked = 0;
    const cleared = await boundary(() => {
      asked += 1;
      return 'deny';
    }).clear(new URL('http://localhost:1/mcp'), CREDENTIALS, 'mcp');
    expect(cleared).toEqual({ trusted: true, headers: CREDENTIALS });
    expect(asked).toBe(0);
  });

  test('an untrusted origin loses every credential header, the host-named ones too, and keeps the rest', {
    tags: ['threat-model'],
  }, async () => {
    const cleared = await boundary(() => 'allow').clear(
      new URL('https://mcp.other.example/mcp'),
      CREDENTIALS,
      'mcp',
    );
    expect(cleared.headers).toEqual({ 'X-Request-Id': 'kept' });
  });

  test('each strip and each block is reported once per origin, naming the option that allows it', {
    tags: ['threat-model'],
  }, async () => {
    const warnings: ClientWarning[] = [];
    const guard = boundary(() => 'deny', warnings);
    for (let i = 0; i < 3; i += 1) {
      await guard.clear(new URL('https://mcp.other.example/mcp'), CREDENTIALS, 'mcp').catch(() => {});
    }
    expect(warnings.map((w) => w.code)).toEqual([
      'PALISADE_CLIENT_W_CREDENTIALS_REMOVED',
      'PALISADE_CLIENT_W_CONSENT_BLOCKED',
    ]);
    for (const warning of warnings) {
      expect(warning.message).toContain('"https://mcp.other.example" to the client\'s trustedOrigins option');
      expect(warning.message).not.toContain('secret');
    }
  });
});

describe('consent', () => {
  const origin = new URL('https://mcp.other.example/mcp');

  test('the default handler denies an undeclared origin', { tags: ['threat-model'] }, async () => {
    const guard = new TrustBoundary({
      matcher: originMatcher(['localhost']),
      consent: new ConsentCache(),
      credentialHeaders: CREDENTIAL_HEADERS,
      warn: () => {},
    });
    await expect(guard.clear(origin, {}, 'mcp')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED',
    });
  });

  test.each([
    ['a Date', () => new Date(Date.now() + 60_000)],
    ['{ ttl }', () => ({ ttl: 60 })],
    ['{ unix }', () => ({ unix: Date.now() / 1000 + 60 })],
    ['{ monotonic }', () => ({ monotonic: performance.now() / 1000 + 60 })],
    ["'allow'", () => 'allow' as const],
  ])('an answer of %s grants consent, cached until it expires', async (_name, answer) => {
    let asked = 0;
    const guard = boundary(() => {
      asked += 1;
      return answer() as never;
    });
    await guard.clear(origin, {}, 'mcp');
    await guard.clear(origin, {}, 'mcp');
    expect(asked).toBe(1);
  });

  test.each([
    ['a bare number (epoch seconds)', () => Math.floor(Date.now() / 1000) + 60],
    ['a bare number (a duration)', () => 60],
    ['an expiry in the past', () => ({ ttl: -1 })],
    ['an expiry more than 365 days out', () => ({ unix: Date.now() / 1000 + 366 * 86_400 })],
    ['an unrecognised answer', () => true],
    ['two forms at once', () => ({ ttl: 60, unix: 1 })],
    ['an invalid Date', () => new Date(Number.NaN)],
  ])('%s blocks the request and is not cached', { tags: ['threat-model'] }, async (_name, answer) => {
    let asked = 0;
    const guard = boundary(() => {
      asked += 1;
      return answer() as never;
    });
    await expect(guard.clear(origin, {}, 'mcp')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_CONSENT_ERROR',
    });
    await expect(guard.clear(origin, {}, 'mcp')).rejects.toBeInstanceOf(ClientError);
    expect(asked).toBe(2);
  });

  test('a handler that throws or rejects blocks the request', { tags: ['threat-model'] }, async () => {
    await expect(
      boundary(() => {
        throw new Error('boom');
      }).clear(origin, {}, 'mcp'),
    ).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_CONSENT_ERROR', rule: 'consent-threw' });
    await expect(
      boundary(() => Promise.reject(new Error('boom'))).clear(origin, {}, 'mcp'),
    ).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_CONSENT_ERROR',
    });
  });

  test('a denial is asked again next time rather than remembered', async () => {
    let asked = 0;
    const guard = boundary(() => {
      asked += 1;
      return 'deny';
    });
    await guard.clear(origin, {}, 'mcp').catch(() => {});
    await guard.clear(origin, {}, 'mcp').catch(() => {});
    expect(asked).toBe(2);
  });

  test('remainingSeconds reads each form as seconds from now', () => {
    expect(remainingSeconds({ ttl: 30 }, 100)).toBe(30);
    expect(remainingSeconds('allow', 100)).toBe(100);
    expect(remainingSeconds(30, 100)).toMatch(/bare number/);
  });
});

describe('the target policy', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['0177.0.0.1', 'invalid'],
    ['2130706433', 'invalid'],
    ['93.184.215.14', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', { tags: ['threat-model'] }, (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  async function loopbackServer(): Promise<{
    port: number;
    hits: IncomingMessage[];
    close(): Promise<void>;
  }> {
    const hits: IncomingMessage[] = [];
    const server = createServer((req, res) => {
      hits.push(req);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      req.on('end', () =>
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: {},
              ttlMs: 0,
              cacheScope: 'private',
            },
          }),
        ),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      port: (server.address() as AddressInfo).port,
      hits,
      close: async () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  test('an undeclared name whose answers include one loopback address is refused whole, and nothing connects', {
    tags: ['threat-model'],
  }, async () => {
    const server = await loopbackServer();
    const client = createClient({
      transport: httpTransport(`http://rebind.test:${server.port}/mcp`, {
        consent: () => 'allow',
        resolver: async () => [
          { address: '93.184.215.14', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
        onWarning: () => {},
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'loopback',
    });
    expect(server.hits).toHaveLength(0);
    await client.close();
    await server.close();
  });

  test('a declared name that answers 127.0.0.1 and then 169.254.169.254 is refused on the second connection', {
    tags: ['threat-model'],
  }, async () => {
    const server = await loopbackServer();
    const answers = ['127.0.0.1', '169.254.169.254'];
    const client = createClient({
      transport: httpTransport(`http://rebind.test:${server.port}/mcp`, {
        trustedOrigins: ['rebind.test'],
        resolver: async () => [{ address: answers.shift() ?? '169.254.169.254', family: 4 }],
      }),
    });
    await client.connect();
    expect(server.hits).toHaveLength(1);
    await expect(client.request('tools/list')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'metadata',
    });
    expect(server.hits).toHaveLength(1);
    await client.close();
    await server.close();
  });

  test('a literal metadata address in the URL is refused before any connection, even when declared', {
    tags: ['threat-model'],
  }, async () => {
    const client = createClient({
      transport: httpTransport('http://169.254.169.254/mcp', { trustedOrigins: ['169.254.169.254'] }),
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'metadata',
    });
  });

  test('an undeclared origin has its credentials stripped and consent asked before its address is judged', async () => {
    const warnings: ClientWarning[] = [];
    const asked: string[] = [];
    const client = createClient({
      transport: httpTransport('http://mcp.other.test:1/mcp', {
        headers: { authorization: 'Bearer s3cret' },
        consent: ({ origin }) => {
          asked.push(origin);
          return { ttl: 60 };
        },
        resolver: async () => [{ address: '10.0.0.8', family: 4 }],
        onWarning: (warning) => warnings.push(warning),
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'private',
    });
    expect(asked).toEqual(['http://mcp.other.test:1']);
    expect(warnings.map((w) => w.code)).toEqual(['PALISADE_CLIENT_W_CREDENTIALS_REMOVED']);
  });
});
