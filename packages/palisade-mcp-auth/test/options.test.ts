/**
 * `bearer()` options are checked once, at construction: each mistake throws an AuthError naming
 * the option, and nothing a request could do depends on a check deferred to it.
 */
import { describe, expect, test } from 'vitest';
import { AuthError, bearer } from '../src/index.js';
import { ISSUER, jwksOf, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
const base = { resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) };

function refusal(options: unknown): string {
  try {
    bearer(options as Parameters<typeof bearer>[0]);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    return `${(error as AuthError).code}: ${(error as AuthError).message}`;
  }
  throw new Error('bearer() accepted the options');
}

describe('bearer() options', () => {
  test.each(['HS256', 'HS512', 'none'])(
    'algorithms naming %s throws at construction',
    {
      tags: ['threat-model'],
    },
    (name) => {
      expect(refusal({ ...base, algorithms: ['ES256', name] })).toBe(
        `PALISADE_AUTH_ERR_INVALID_OPTION: option "algorithms[1]" names ${name}, which is never accepted: only asymmetric signatures (a verifier holding an HMAC secret can also mint tokens, and none is no signature)`,
      );
    },
  );

  test('an algorithm name this package does not verify throws naming the ones it does', () => {
    expect(refusal({ ...base, algorithms: ['ES256K'] })).toContain(
      'option "algorithms[0]" must be one of RS256',
    );
  });

  test('an unknown option throws naming it', () => {
    expect(refusal({ ...base, audiance: RESOURCE })).toBe(
      'PALISADE_AUTH_ERR_UNKNOWN_OPTION: unknown option "audiance"',
    );
  });

  test('a missing resource throws naming it', () => {
    expect(refusal({ issuer: ISSUER, jwks: jwksOf(key) })).toContain('option "resource" is required');
  });

  test('a missing issuer throws naming it', () => {
    expect(refusal({ resource: RESOURCE, jwks: jwksOf(key) })).toContain('option "issuer" is required');
  });

  test.each([
    ['a fragment', 'https://mcp.example.com/mcp#x', 'must not carry a fragment (RFC 8707 §2)'],
    ['a query', 'https://mcp.example.com/mcp?tenant=1', 'must not carry a query'],
    [
      'an upper-case host',
      'https://MCP.example.com/mcp',
      'must be written in canonical form: https://mcp.example.com/mcp',
    ],
    [
      'a default port',
      'https://mcp.example.com:443/mcp',
      'must be written in canonical form: https://mcp.example.com/mcp',
    ],
    [
      'plain http to a public host',
      'http://mcp.example.com/mcp',
      'must be https (http only for localhost, 127.0.0.1 or ::1)',
    ],
  ])('a resource with %s throws', (_what, resource, message) => {
    expect(refusal({ ...base, resource })).toBe(
      `PALISADE_AUTH_ERR_INVALID_OPTION: option "resource" ${message}`,
    );
  });

  test('a resource on loopback http is accepted', () => {
    expect(() => bearer({ ...base, resource: 'http://127.0.0.1:3000/mcp' })).not.toThrow();
  });

  test('a static JWKS holding a private key throws', { tags: ['threat-model'] }, () => {
    const exposed = key.privateKey.export({ format: 'jwk' });
    expect(refusal({ ...base, jwks: { keys: [exposed] } })).toBe(
      'PALISADE_AUTH_ERR_INVALID_OPTION: option "jwks" key 0 holds private key material ("d")',
    );
  });

  test('a static JWKS holding a symmetric key throws', { tags: ['threat-model'] }, () => {
    expect(refusal({ ...base, jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } })).toContain(
      'holds private key material ("k")',
    );
  });

  test('a static JWKS holding a 1024-bit RSA key throws', { tags: ['threat-model'] }, async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    expect(refusal({ ...base, jwks: { keys: [weak] } })).toBe(
      'PALISADE_AUTH_ERR_INVALID_OPTION: option "jwks" key 0 has an RSA modulus under 2048 bits',
    );
  });

  test('a static JWKS of 10,000 keys throws', { tags: ['threat-model'] }, () => {
    expect(refusal({ ...base, jwks: { keys: Array(10_000).fill(key.jwk) } })).toBe(
      'PALISADE_AUTH_ERR_INVALID_OPTION: option "jwks" holds 10000 keys, more than 100',
    );
  });

  test('jwks and jwksUri together throw', () => {
    expect(refusal({ ...base, jwksUri: 'https://auth.example.com/jwks' })).toContain(
      'option "jwks" and jwksUri are two key sources: give one',
    );
  });

  test('a jwksUri over plain http to a public host throws', { tags: ['threat-model'] }, () => {
    const { jwks: _, ...rest } = base;
    expect(refusal({ ...rest, jwksUri: 'http://auth.example.com/jwks' })).toContain(
      'option "jwksUri" must be https',
    );
  });

  test('a scope holding a quote throws, so a challenge can never be broken by one', {
    tags: ['threat-model'],
  }, () => {
    expect(refusal({ ...base, scopes: { required: ['a"b'] } })).toContain(
      'option "scopes.required[0]" must be a scope',
    );
  });

  test('a resourceMetadataUrl holding a backslash throws, so a challenge can never be broken by one', {
    tags: ['threat-model'],
  }, () => {
    for (const url of [
      'https://mcp.example.com/.well-known/oauth-protected-resource?x=\\',
      'https://mcp.example.com/.well-known/oauth-protected-resource#a\\", error="invalid_request',
    ]) {
      expect(refusal({ ...base, resourceMetadataUrl: url })).toBe(
        'PALISADE_AUTH_ERR_INVALID_OPTION: option "resourceMetadataUrl" must not hold a backslash: the challenge quotes it',
      );
    }
  });

  test('a method scope keyed by a method MCP does not have throws naming it', {
    tags: ['threat-model'],
  }, () => {
    expect(refusal({ ...base, scopes: { methods: { 'tools/calll': ['x'] } } })).toBe(
      'PALISADE_AUTH_ERR_INVALID_OPTION: option "scopes.methods.tools/calll" is not a method an MCP client sends (2025-11-25, 2026-07-28)',
    );
  });

  test.each([
    ['leeway', { leeway: 301 }, 'option "leeway" must be an integer from 0 to 300'],
    [
      'maxTokenBytes',
      { maxTokenBytes: 1_000_000 },
      'option "maxTokenBytes" must be an integer from 64 to 65536',
    ],
    [
      'fetch.timeoutMs',
      { fetch: { timeoutMs: 0 } },
      'option "fetch.timeoutMs" must be an integer from 1 to 60000',
    ],
    ['profile', { profile: 'rfc7519' }, `option "profile" must be 'rfc9068'`],
    [
      'introspection.clientAuth',
      { introspection: { clientId: 'a', clientSecret: 'b', clientAuth: 'none' } },
      `option "introspection.clientAuth" must be 'client_secret_basic' or 'client_secret_post'`,
    ],
  ])('a bad %s throws naming it', (_name, extra, message) => {
    expect(refusal({ ...base, ...extra })).toContain(message);
  });

  test('introspection without an endpoint and two issuers throws', () => {
    expect(
      refusal({
        resource: RESOURCE,
        issuer: [ISSUER, 'https://b.example.com'],
        introspection: { clientId: 'a', clientSecret: 'b' },
      }),
    ).toContain('option "introspection.endpoint" is required when more than one issuer is accepted');
  });

  test('the returned hooks are frozen and hold authorizeBody only when a scope depends on the body', () => {
    const plain = bearer(base);
    expect(Object.isFrozen(plain)).toBe(true);
    expect(Object.keys(plain)).toEqual(['authorize']);
    expect(Object.keys(bearer({ ...base, scopes: { tools: { whoami: ['x'] } } }))).toEqual([
      'authorize',
      'authorizeBody',
    ]);
  });
});
