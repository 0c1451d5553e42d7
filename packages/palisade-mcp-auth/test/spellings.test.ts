/**
 * `aud` and `iss` compared exactly, over a real socket: RFC 7519 §2 compares StringOrURI values
 * as strings, with no case folding and no normalisation, and a parser that normalised them would
 * differ from the issuer's. The one spelling allowance is a resource at an origin's root, whose
 * two spellings RFC 3986 makes one URI.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { type Served, serveNode, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
let served: Served;

beforeAll(async () => {
  served = await serveNode(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }));
});

afterAll(async () => {
  await served.close();
});

describe('the audience', () => {
  test.each([
    ['a host in capitals', 'https://MCP.example.com/mcp'],
    ['a scheme in capitals', 'HTTPS://mcp.example.com/mcp'],
    ['the default port written out', 'https://mcp.example.com:443/mcp'],
    ['a fragment', 'https://mcp.example.com/mcp#x'],
    ['a query', 'https://mcp.example.com/mcp?x=1'],
    ['an empty query', 'https://mcp.example.com/mcp?'],
    ['a trailing slash', 'https://mcp.example.com/mcp/'],
    ['a dot segment', 'https://mcp.example.com/./mcp'],
    ['a doubled slash', 'https://mcp.example.com//mcp'],
    ['a percent-encoded letter', 'https://mcp.example.com/%6Dcp'],
    ['a path in capitals', 'https://mcp.example.com/MCP'],
    ['userinfo', 'https://user@mcp.example.com/mcp'],
    ['http for https', 'http://mcp.example.com/mcp'],
  ])(
    'the resource spelt with %s is another audience, refused as bearer-audience',
    {
      tags: ['threat-model'],
    },
    async (_how, aud) => {
      const token = await mint(key, goodClaims({ aud }));
      await expectRefused(await fetch(whoami(served.url, token)), RULES.audience, served.events, token);
    },
  );

  test('a resource at an origin’s root is named by either spelling, with or without the slash', {
    tags: ['threat-model'],
  }, async () => {
    for (const resource of ['https://mcp.example.com', 'https://mcp.example.com/']) {
      const root = await serveNode(bearer({ resource, issuer: ISSUER, jwks: jwksOf(key) }));
      try {
        for (const aud of ['https://mcp.example.com', 'https://mcp.example.com/'])
          expect((await fetch(whoami(root.url, await mint(key, goodClaims({ aud }))))).status).toBe(200);
        for (const aud of [
          'https://mcp.example.com//',
          'https://mcp.example.com/mcp',
          'https://mcp.example.com:443',
        ])
          expect((await fetch(whoami(root.url, await mint(key, goodClaims({ aud }))))).status).toBe(401);
      } finally {
        await root.close();
      }
    }
  });
});

describe('the issuer', () => {
  test.each([
    ['a host in capitals', 'https://AUTH.example.com'],
    ['the default port written out', 'https://auth.example.com:443'],
    ['a trailing slash', 'https://auth.example.com/'],
    ['http for https', 'http://auth.example.com'],
  ])(
    'the issuer spelt with %s is another issuer, refused as bearer-issuer',
    {
      tags: ['threat-model'],
    },
    async (_how, iss) => {
      const token = await mint(key, goodClaims({ iss }));
      await expectRefused(await fetch(whoami(served.url, token)), RULES.issuer, served.events, token);
    },
  );
});
