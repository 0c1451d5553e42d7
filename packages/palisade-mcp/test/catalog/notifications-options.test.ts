/**
 * The `notifications` and `defaultLogLevel` options, checked once at construction, and the
 * announce calls refusing a change the host never declared.
 */
import { describe, expect, test } from 'vitest';
import { createServer, PalisadeError, type ServerDefinition } from '../../src/index.js';

const BASE: ServerDefinition = {
  name: 'n',
  version: '1',
  resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'a' }] }],
};

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PalisadeError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('notifications options', () => {
  test('an unknown notifications member is refused by name', () => {
    expect(codeOf(() => createServer({ ...BASE, notifications: { toolsChanged: true } as never }))).toContain(
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
  });

  test('a notifications flag that is not a boolean is refused by name', () => {
    expect(codeOf(() => createServer({ ...BASE, notifications: { toolsListChanged: 'yes' as never } }))).toBe(
      'PALISADE_ERR_INVALID_OPTION: option "notifications.toolsListChanged" must be a boolean',
    );
  });

  test('a listen lifetime beyond one day is refused', () => {
    expect(
      codeOf(() => createServer({ ...BASE, notifications: { listenLifetimeMs: 86_400_001 } })),
    ).toContain('notifications.listenLifetimeMs');
    expect(() => createServer({ ...BASE, notifications: { listenLifetimeMs: 86_400_000 } })).not.toThrow();
  });

  test('resource subscriptions on a server with no resources to watch are refused', () => {
    expect(
      codeOf(() => createServer({ name: 'n', version: '1', notifications: { resourceSubscriptions: true } })),
    ).toContain('notifications.resourceSubscriptions');
  });

  test('a defaultLogLevel that is no log level is refused by name', () => {
    expect(codeOf(() => createServer({ ...BASE, defaultLogLevel: 'loud' as never }))).toContain(
      'defaultLogLevel',
    );
  });

  test('announcing a change the host did not declare throws PALISADE_ERR_UNDECLARED_CHANGE', () => {
    const server = createServer({ ...BASE, notifications: { resourceSubscriptions: true } });
    expect(codeOf(() => server.notifyListChanged('resources'))).toContain('PALISADE_ERR_UNDECLARED_CHANGE');
    expect(() => server.notifyResourceUpdated('test://a')).not.toThrow();
  });

  test('announcing a list kind that does not exist throws PALISADE_ERR_INVALID_ARGUMENT', () => {
    const server = createServer({ ...BASE, notifications: { toolsListChanged: true } });
    expect(codeOf(() => server.notifyListChanged('widgets' as never))).toContain(
      'PALISADE_ERR_INVALID_ARGUMENT',
    );
  });
});
