/**
 * A hostile or careless server over stdio: a line past the bound fails the calls in flight by
 * name and the next call goes through; a `resources/read` of `file:///etc/passwd` (typed, through
 * `request`, or as a subscription) is held by the trust boundary and never written to the server;
 * a listing that offers the host's files or an internal host has those entries withheld.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { type Client, createClient, stdioTransport } from '../src/index.js';

const SERVER = fileURLToPath(new URL('./fixtures/line-server.mjs', import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

type Consent = (request: { origin: string }) => unknown;

function lineClient(seen: string[], trust: { consent?: Consent; trustedOrigins?: string[] } = {}): Client {
  const client = createClient({
    transport: stdioTransport({
      command: process.execPath,
      args: [SERVER],
      stderr: (line) => seen.push(line),
      ...(trust.trustedOrigins === undefined ? {} : { trustedOrigins: trust.trustedOrigins }),
      ...(trust.consent === undefined ? {} : { consent: trust.consent as () => 'allow' }),
    }),
    revisions: ['2025-11-25'],
  });
  clients.push(client);
  return client;
}

describe('a hostile server over stdio', () => {
  test('a line of 1 MiB + 1 fails the call in flight by name and the next call goes through', {
    tags: ['threat-model'],
  }, async () => {
    const client = lineClient([]);
    await expect(client.callTool('flood')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_MESSAGE_REFUSED',
      rule: 'line-too-large',
    });
    expect((await client.callTool('ok')).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  test('resources/read of file:///etc/passwd is refused by the trust boundary and never reaches the server', {
    tags: ['threat-model'],
  }, async () => {
    const seen: string[] = [];
    const client = lineClient(seen);
    await expect(client.readResource('file:///etc/passwd')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED',
    });
    await client.callTool('ok');
    await expect.poll(() => seen).toContain('got tools/call');
    expect(seen).not.toContain('got resources/read');
  });

  test('a resource on an undeclared http origin needs consent too; declaring file:// lets a file URI through', async () => {
    const seen: string[] = [];
    const denied = lineClient(seen);
    await expect(denied.readResource('https://internal.example/secret')).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED',
    });
    const allowed = lineClient(seen, { trustedOrigins: ['localhost', 'file://'] });
    expect((await allowed.readResource('file:///tmp/notes.txt')).contents[0]?.text).toBe('root:x:0:0');
    await expect.poll(() => seen).toContain('got resources/read');
  });

  test('a URI in the server’s own scheme is not an outbound request and passes', async () => {
    const client = lineClient([]);
    expect((await client.readResource('demo://readme')).contents).toHaveLength(1);
  });

  test('a read of file:///etc/passwd sent through request() or as a subscription is refused the same way', {
    tags: ['threat-model'],
  }, async () => {
    const seen: string[] = [];
    const client = lineClient(seen);
    for (const method of ['resources/read', 'resources/subscribe']) {
      await expect(client.request(method, { uri: 'file:///etc/passwd' })).rejects.toMatchObject({
        code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED',
      });
    }
    await client.callTool('ok');
    await expect.poll(() => seen).toContain('got tools/call');
    expect(seen.filter((line) => line.startsWith('uri '))).toEqual([]);
  });

  test('a listing withholds the host’s files and undeclared origins, keeping the server’s own URIs', {
    tags: ['threat-model'],
  }, async () => {
    const client = lineClient([]);
    const listed = await client.listResources();
    expect(listed.items.map((item) => item.uri)).toEqual(['demo://readme']);
  });

  test('the consent handler is asked once per origin of a listing, and what it allows is listed', {
    tags: ['threat-model'],
  }, async () => {
    const asked: string[] = [];
    const client = lineClient([], {
      consent: ({ origin }) => {
        asked.push(origin);
        return origin === 'https://internal.example' ? 'allow' : 'deny';
      },
    });
    const listed = await client.listResources();
    // Two file: entries, one question: a denial is not remembered, so only the grouping keeps it to one.
    expect(listed.items.map((item) => item.uri)).toEqual([
      'https://internal.example/secret',
      'demo://readme',
    ]);
    expect(asked.sort()).toEqual(['file://', 'https://internal.example']);
  });
});
