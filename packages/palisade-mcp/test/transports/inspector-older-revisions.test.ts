/**
 * The MCP Inspector's command line, `mcpdo`, against servers that serve only older revisions,
 * each a real process or socket: mcpdo cannot be told to offer one (its `--era legacy` always
 * offers 2025-11-25), so these servers counter its offer with the newest revision they serve, and
 * mcpdo takes it, as the spec's negotiation has it. Each transport meets one revision: stdio
 * 2025-06-18, HTTP 2025-03-26 (one mcpdo command costs most of a second of CPU).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpdo, type Mcpdo } from '../../../demo/test/mcpdo.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer } from '../../src/index.js';
import { widest } from '../fixtures/widest.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { ADMIT_ALL, type Mounted, mount } from '../support/http-peer.js';

const MCPDO_TEST_MS = 60_000;

let mounted: Mounted;
let mcpdo: Mcpdo;

beforeAll(async () => {
  mounted = await mount(
    createHttpHandler(createServer({ ...widest, supportedVersions: ['2025-03-26'] }), ADMIT_ALL),
  );
  mcpdo = await createMcpdo({
    'only-2025-06-18': {
      command: process.execPath,
      args: [bundledFixture('serve-stdio'), 'widest', '--only=2025-06-18'],
    },
    'only-2025-03-26': { type: 'streamable-http', url: `http://127.0.0.1:${mounted.port}/mcp` },
  });
});

afterAll(async () => {
  try {
    await mcpdo?.stop();
  } finally {
    await mounted?.close();
  }
}, MCPDO_TEST_MS);

const types = (result: Record<string, unknown>): unknown[] =>
  (result['content'] as Array<Record<string, unknown>>).map((block) => block['type']);

describe('mcpdo against servers of the older revisions', () => {
  test(
    'over stdio, a server of 2025-06-18 alone counters mcpdo’s 2025-11-25, and mcpdo lists and calls on it',
    async () => {
      const name = 'only-2025-06-18';
      expect(await mcpdo.connect(name)).toMatchObject({
        protocolVersion: '2025-06-18',
        protocolEra: 'legacy',
      });
      const [tools, everything] = await Promise.all([
        mcpdo.on(name, 'tools/list'),
        mcpdo.on(name, 'tools/call', 'everything'),
      ]);
      const listed = (tools['tools'] as Array<Record<string, unknown>>).find(
        (tool) => tool['name'] === 'everything',
      );
      expect(listed).toMatchObject({ title: 'Everything', outputSchema: { type: 'object' } });
      expect(listed?.['icons']).toBeUndefined();
      expect(everything).toMatchObject({ structuredContent: { ok: true } });
      expect(types(everything)).toEqual(['text', 'image', 'audio', 'resource_link', 'resource', 'text']);
    },
    MCPDO_TEST_MS,
  );

  test(
    'over HTTP, a server of 2025-03-26 alone counters mcpdo’s 2025-11-25, and mcpdo lists and calls on it',
    async () => {
      const name = 'only-2025-03-26';
      expect(await mcpdo.connect(name)).toMatchObject({
        protocolVersion: '2025-03-26',
        protocolEra: 'legacy',
      });
      const [tools, everything] = await Promise.all([
        mcpdo.on(name, 'tools/list'),
        mcpdo.on(name, 'tools/call', 'everything'),
      ]);
      const listed = (tools['tools'] as Array<Record<string, unknown>>).find(
        (tool) => tool['name'] === 'everything',
      );
      expect(Object.keys(listed ?? {}).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name']);
      expect(everything['structuredContent']).toBeUndefined();
      expect(types(everything)).toEqual(['text', 'image', 'audio', 'resource', 'text']);
    },
    MCPDO_TEST_MS,
  );
});
