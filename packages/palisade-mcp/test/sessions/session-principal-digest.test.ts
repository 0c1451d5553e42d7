/**
 * A session's principal digest is computed once per principal, not on every request: hashing it
 * afresh was the largest CPU cost sessions added to a `tools/call` (docs/benchmarks.md). The
 * digest is still compared on every request, so another principal still finds no session.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MAX_CACHED_PRINCIPAL_CHARS, MAX_CACHED_PRINCIPALS } from '../../src/limits.js';
import { PrincipalDigests, principalDigest } from '../../src/sessions/principal.js';
import { type Endpoint, nodeEndpoint, SessionClient } from '../support/session-peer.js';
import { sessionServer } from './session-server.js';

const sha256Calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    createHash: (algorithm: string, ...rest: unknown[]) => {
      if (algorithm === 'sha256') sha256Calls.count++;
      return (crypto.createHash as (...args: unknown[]) => ReturnType<typeof crypto.createHash>)(
        algorithm,
        ...rest,
      );
    },
  };
});

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('over a socket', () => {
  test("a session's requests hash its principal once, and another principal still finds no session", {
    tags: ['threat-model'],
  }, async () => {
    endpoint = await nodeEndpoint(sessionServer(), {
      authorize: (request) => ({ ok: true, auth: { user: request.headers['x-user'] } }),
    });
    const alice = new SessionClient(endpoint.url);
    await alice.open({}, { 'x-user': 'alice' });
    const before = sha256Calls.count;
    for (let n = 0; n < 20; n++) {
      const answer = await alice.request(
        'tools/call',
        { name: 'echo', arguments: { text: `n${n}` } },
        {
          headers: { 'x-user': 'alice' },
        },
      );
      expect(answer.status).toBe(200);
    }
    expect(sha256Calls.count - before).toBe(0);
    const stolen = await alice.request('tools/list', undefined, { headers: { 'x-user': 'mallory' } });
    expect(stolen.status).toBe(404);
  });
});

describe('PrincipalDigests', () => {
  test('answers the SHA-256 of the text, the same on every call', () => {
    const digests = new PrincipalDigests();
    expect(digests.digest('{"user":"alice"}')).toBe(principalDigest('{"user":"alice"}'));
    expect(digests.digest('{"user":"alice"}')).toBe(principalDigest('{"user":"alice"}'));
    expect(digests.digest('{"user":"bob"}')).toBe(principalDigest('{"user":"bob"}'));
  });

  test('holds at most MAX_CACHED_PRINCIPALS texts, then starts over', { tags: ['threat-model'] }, () => {
    const digests = new PrincipalDigests();
    for (let n = 0; n < MAX_CACHED_PRINCIPALS; n++) digests.digest(`p${n}`);
    expect(digests.size).toBe(MAX_CACHED_PRINCIPALS);
    const before = sha256Calls.count;
    digests.digest('p0');
    expect(sha256Calls.count).toBe(before);
    expect(digests.digest('one more')).toBe(principalDigest('one more'));
    expect(digests.size).toBe(1);
  });

  test('does not keep a text longer than MAX_CACHED_PRINCIPAL_CHARS', () => {
    const digests = new PrincipalDigests();
    const long = 'x'.repeat(MAX_CACHED_PRINCIPAL_CHARS + 1);
    expect(digests.digest(long)).toBe(principalDigest(long));
    expect(digests.size).toBe(0);
  });
});
