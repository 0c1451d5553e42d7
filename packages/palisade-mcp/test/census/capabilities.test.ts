/**
 * Will-not-implement: a capability the revision's schema does not define. The schemas leave
 * `ServerCapabilities` open (extra keys validate), so validating a reply against them proves
 * nothing; this census compares key sets instead, against the property names of each revision's
 * schema (`test/fixtures/spec/schema/`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from '../../src/index.js';
import { type InProcessPeer, serveInProcess } from '../support/in-process.js';
import { INITIALIZE, modern } from '../support/stdio-peer.js';
import { EVERY_KIND } from './every-kind.js';
import { definedKeys, undefinedCapabilities } from './rules-capabilities.js';

const REVISION_2025 = definedKeys('2025-11-25');
const REVISION_2026 = definedKeys('2026-07-28');

describe('census: no capability the revision does not define', () => {
  let legacy: InProcessPeer;
  let modernPeer: InProcessPeer;
  let initialized: Record<string, unknown>;
  let discovered: Record<string, unknown>;

  beforeAll(async () => {
    legacy = serveInProcess(createServer(EVERY_KIND));
    modernPeer = serveInProcess(createServer(EVERY_KIND));
    const init = await legacy.request({ ...INITIALIZE });
    initialized = (init['result'] as { capabilities: Record<string, unknown> }).capabilities;
    const discover = await modernPeer.request(modern(1, 'server/discover'));
    discovered = (discover['result'] as { capabilities: Record<string, unknown> }).capabilities;
  });
  afterAll(async () => {
    await legacy.close();
    await modernPeer.close();
  });

  test('a server with every catalog kind advertises tools, resources, prompts, completions and logging on both revisions', () => {
    for (const advertised of [initialized, discovered]) {
      expect(Object.keys(advertised).sort()).toEqual([
        'completions',
        'logging',
        'prompts',
        'resources',
        'tools',
      ]);
    }
  });

  test('every capability key initialize advertises on 2025-11-25 is defined by that schema', () => {
    expect(undefinedCapabilities(initialized, REVISION_2025)).toEqual([]);
  });

  test('every capability key server/discover advertises on 2026-07-28 is defined by that schema', () => {
    expect(undefinedCapabilities(discovered, REVISION_2026)).toEqual([]);
  });

  test('a planted top-level capability the schema lacks is named', () => {
    const planted = { tools: { listChanged: false }, sessions: {} };
    expect(undefinedCapabilities(planted, REVISION_2026)).toEqual([
      'capabilities.sessions is not defined by the schema',
    ]);
  });

  test('a planted nested key the schema lacks is named', () => {
    const planted = { resources: { subscribe: false, watch: true } };
    expect(undefinedCapabilities(planted, REVISION_2025)).toEqual([
      'capabilities.resources.watch is not defined by the schema',
    ]);
  });

  test.each(['2025-06-18', '2025-03-26', '2024-11-05'] as const)(
    'every capability key initialize advertises on %s is defined by that schema',
    async (revision) => {
      const peer = serveInProcess(createServer(EVERY_KIND));
      try {
        const init = await peer.request({
          ...INITIALIZE,
          params: { ...INITIALIZE.params, protocolVersion: revision },
        });
        const result = init['result'] as { protocolVersion: string; capabilities: Record<string, unknown> };
        expect(result.protocolVersion).toBe(revision);
        expect(undefinedCapabilities(result.capabilities, definedKeys(revision))).toEqual([]);
      } finally {
        await peer.close();
      }
    },
  );

  test('completions, which 2024-11-05 does not define, is named when advertised there', () => {
    expect(undefinedCapabilities({ completions: {} }, definedKeys('2024-11-05'))).toEqual([
      'capabilities.completions is not defined by the schema',
    ]);
  });

  test('tasks, defined on 2025-11-25 only, is named when advertised on 2026-07-28', () => {
    const planted = { tasks: { list: {} } };
    expect(undefinedCapabilities(planted, REVISION_2025)).toEqual([]);
    expect(undefinedCapabilities(planted, REVISION_2026)).toEqual([
      'capabilities.tasks is not defined by the schema',
    ]);
  });
});
