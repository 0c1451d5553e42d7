/**
 * Scopes per server, per method and per tool, resource or prompt name, on both revisions: a
 * 2026-07-28 request is decided from its headers before its body is read (the server holds them
 * to the body), a 2025-11-25 request from its body once read. A token without a scope the
 * operation needs is 403 `insufficient_scope` naming every scope the operation needs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { legacy, modern, post, type Served, serveNode } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
let served: Served;

beforeAll(async () => {
  served = await serveNode(
    bearer({
      resource: RESOURCE,
      issuer: ISSUER,
      jwks: jwksOf(key),
      scopes: {
        required: ['mcp'],
        methods: { 'resources/read': ['files:read'] },
        tools: { delete_everything: ['admin', 'danger'] },
        resources: { 'file:///secret.txt': ['secrets'] },
        prompts: { audit: ['audit'] },
        implied: { root: ['admin', 'danger', 'secrets'] },
      },
    }),
  );
});

afterAll(async () => {
  await served.close();
});

async function send(
  request: { body: string; headers: Record<string, string> },
  scope: string,
): Promise<Response> {
  return fetch(post(served.url, request, `Bearer ${await mint(key, goodClaims({ scope }))}`));
}

const deleteAll = { name: 'delete_everything', arguments: {} };

describe('scopes on 2026-07-28, decided from the headers', () => {
  test('a token without a server-wide scope is refused 403 naming it', {
    tags: ['threat-model'],
  }, async () => {
    const response = await send(modern('tools/list'), 'other');
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="The access token lacks a scope this request needs", ' +
        'scope="mcp", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    await expectRefused(response, RULES.insufficientScope, served.events);
  });

  test('a tool that needs two scopes is refused 403 naming all of them in one challenge', {
    tags: ['threat-model'],
  }, async () => {
    const response = await send(modern('tools/call', deleteAll), 'mcp admin');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('scope="mcp admin danger"');
  });

  test('the tool is called once the token holds every scope it needs', async () => {
    const response = await send(modern('tools/call', deleteAll), 'mcp admin danger');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('deleted');
  });

  test('a broader scope stands for those it implies', { tags: ['threat-model'] }, async () => {
    expect((await send(modern('tools/call', deleteAll), 'mcp root')).status).toBe(200);
  });

  test('a tool without a scope of its own needs only the server-wide one', async () => {
    expect((await send(modern('tools/call', { name: 'whoami', arguments: {} }), 'mcp')).status).toBe(200);
  });

  test('a method scope and a resource scope add up for resources/read', {
    tags: ['threat-model'],
  }, async () => {
    const read = modern('resources/read', { uri: 'file:///secret.txt' });
    const refused = await send(read, 'mcp files:read');
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp files:read secrets"');
    expect((await send(read, 'mcp files:read secrets')).status).toBe(200);
    expect(
      (await send(modern('resources/read', { uri: 'file:///public.txt' }), 'mcp files:read')).status,
    ).toBe(200);
  });

  test('a prompt scope is held on prompts/get', { tags: ['threat-model'] }, async () => {
    expect((await send(modern('prompts/get', { name: 'audit' }), 'mcp')).status).toBe(403);
    expect((await send(modern('prompts/get', { name: 'audit' }), 'mcp audit')).status).toBe(200);
  });

  test('a request without a token is challenged with the scopes its headers say it needs', {
    tags: ['threat-model'],
  }, async () => {
    const response = await fetch(post(served.url, modern('tools/call', deleteAll)));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer scope="mcp admin danger", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });

  test('an Mcp-Name naming a harmless tool over a body calling the guarded one is refused, never run', {
    tags: ['threat-model'],
  }, async () => {
    const lying = modern('tools/call', deleteAll);
    const response = await send({ ...lying, headers: { ...lying.headers, 'mcp-name': 'whoami' } }, 'mcp');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('-32020');
  });

  test('an Mcp-Name sent base64-encoded is decoded before its scopes are looked up', async () => {
    const call = modern('tools/call', deleteAll);
    const encoded = `=?base64?${Buffer.from('delete_everything').toString('base64')}?=`;
    const response = await send({ ...call, headers: { ...call.headers, 'mcp-name': encoded } }, 'mcp');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('scope="mcp admin danger"');
  });
});

describe('scopes on 2025-11-25, decided from the body', () => {
  test('a 2025-11-25 call to a guarded tool is refused 403 after the body is read, naming its scopes', {
    tags: ['threat-model'],
  }, async () => {
    const response = await send(legacy('tools/call', deleteAll), 'mcp');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(response.headers.get('www-authenticate')).toContain('scope="mcp admin danger"');
    expect(served.events.at(-1)?.rule).toBe(RULES.insufficientScope.rule);
  });

  test('a 2025-11-25 call is admitted once the token holds the scopes', async () => {
    const response = await send(legacy('tools/call', deleteAll), 'mcp admin danger');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('deleted');
  });

  test('a 2025-11-25 resources/read of a guarded resource is refused 403', {
    tags: ['threat-model'],
  }, async () => {
    expect(
      (await send(legacy('resources/read', { uri: 'file:///secret.txt' }), 'mcp files:read')).status,
    ).toBe(403);
  });

  test('a body too deep to read is refused 403 as bearer-body-unreadable before anything runs', {
    tags: ['threat-model'],
  }, async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything","x":${'['.repeat(100)}${']'.repeat(100)}}}`;
    const response = await send({ body: deep, headers: { 'mcp-protocol-version': '2025-11-25' } }, 'mcp');
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(served.events.at(-1)?.rule).toBe(RULES.bodyUnreadable.rule);
  });

  test('a body repeating params.name is refused by the server whichever name the scopes were judged on', {
    tags: ['threat-model'],
  }, async () => {
    const body =
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything","name":"whoami","arguments":{}}}';
    const response = await send({ body, headers: { 'mcp-protocol-version': '2025-11-25' } }, 'mcp');
    expect(response.status).toBe(400);
  });
});
