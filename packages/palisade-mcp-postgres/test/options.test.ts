/**
 * createPostgres checks its options once, by name, and a database that cannot be reached turns
 * into a named refusal: `ready()`, a store and a new listen stream fail with the server package's
 * UnavailableError (`postgres-unavailable`, Retry-After 2), which it answers 503. No database runs
 * here: the unreachable one is a port nothing listens on.
 */
import { UnavailableError } from 'palisade-mcp';
import { afterEach, describe, expect, test } from 'vitest';
import { createPostgres, type Postgres, type PostgresOptions } from '../src/index.js';
import { freePort } from './support/embedded-postgres.js';

const opened: Postgres[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((one) => one.close()));
});

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
    [
      { connectionString: 'postgres://x', listenHealthMs: 0 },
      'option "listenHealthMs" must be an integer from 10',
    ],
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

  test('ready() rejects with PALISADE_ERR_UNAVAILABLE, naming no address or driver text', async () => {
    const shared = await unreachable();
    const failure = await shared.ready().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'PALISADE_ERR_UNAVAILABLE',
      message: 'PostgreSQL is unreachable; retrying with backoff',
    });
    expect(shared.reachable).toBe(false);
  });

  test('a query while unreachable fails at once with an UnavailableError the server answers 503 postgres-unavailable', async () => {
    const shared = await unreachable();
    await shared.ready().catch(() => undefined);
    const failure = await Promise.resolve()
      .then(() => shared.tasks.get('some-task', ''))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(UnavailableError);
    expect(failure).toMatchObject({ rule: 'postgres-unavailable', retryAfterSeconds: 2 });
  });

  test('a listen stream is refused while this process does not LISTEN', async () => {
    const shared = await unreachable();
    await shared.ready().catch(() => undefined);
    expect(() => shared.bus.ensureListening()).toThrow(UnavailableError);
  });
});
