/**
 * createPostgres checks its options once, by name, and a database that cannot be reached turns
 * into a named refusal: `ready()` rejects PALISADE_PG_UNAVAILABLE and `admit()` answers 503 with
 * Retry-After and the rule `postgres-unavailable`, never the host's authorize. No database runs
 * here: the unreachable one is a port nothing listens on.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createPostgres, type Postgres, type PostgresOptions } from '../src/index.js';
import { freePort } from './support/embedded-postgres.js';

const opened: Postgres[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((one) => one.close()));
});

const REQUEST = { method: 'POST', target: '/mcp', headers: {}, rawHeaders: [], remoteAddress: '127.0.0.1' };

describe('createPostgres options', () => {
  test.each([
    [{}, 'option "connectionString" is required'],
    [
      { connectionString: 'postgres://x', schema: 'Bad-Name' },
      'option "schema" must be a lower-case identifier',
    ],
    [
      { connectionString: 'postgres://x', maxConnections: 0 },
      'option "maxConnections" must be an integer from 1',
    ],
    [{ connectionString: 'postgres://x', migrate: 'yes' }, 'option "migrate" must be a boolean'],
    [{ connectionString: 'postgres://x', poolSize: 3 }, 'option "poolSize" is not an option'],
  ])('%j is refused by name', (options, message) => {
    expect(() => createPostgres(options as unknown as PostgresOptions)).toThrow(message);
    try {
      createPostgres(options as unknown as PostgresOptions);
    } catch (error) {
      expect(error).toMatchObject({ code: 'PALISADE_PG_INVALID_OPTION' });
    }
  });
});

describe('an unreachable database', () => {
  async function unreachable(): Promise<Postgres> {
    const port = await freePort();
    const shared = createPostgres({
      connectionString: `postgres://nobody:nothing@127.0.0.1:${port}/none`,
      connectTimeoutMs: 500,
      backoffInitialMs: 10_000,
    });
    opened.push(shared);
    return shared;
  }

  test('ready() rejects with PALISADE_PG_UNAVAILABLE, naming no address or driver text', async () => {
    const shared = await unreachable();
    const failure = await shared.ready().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'PALISADE_PG_UNAVAILABLE',
      message: 'PostgreSQL is unreachable; retrying with backoff',
    });
    expect(shared.reachable).toBe(false);
  });

  test("admit() answers 503 postgres-unavailable with Retry-After while unreachable, and the host's authorize is not asked", async () => {
    const shared = await unreachable();
    await shared.ready().catch(() => undefined);
    let asked = 0;
    const admit = shared.admit(() => {
      asked += 1;
      return { ok: true };
    });
    expect(await admit(REQUEST)).toEqual({
      ok: false,
      status: 503,
      headers: { 'retry-after': '2' },
      rule: 'postgres-unavailable',
      reason: 'PostgreSQL is unreachable; the adapter is reconnecting',
    });
    expect(asked).toBe(0);
  });

  test("admit() defers to the host's authorize while the database is reachable", async () => {
    const shared = await unreachable();
    const admit = shared.admit(() => ({ ok: false, status: 401, rule: 'host-says-no' }));
    // Nothing has failed yet: the adapter has no reason to think the database is down.
    expect(await admit(REQUEST)).toEqual({ ok: false, status: 401, rule: 'host-says-no' });
    expect(await shared.admit()(REQUEST)).toEqual({ ok: true });
  });
});
