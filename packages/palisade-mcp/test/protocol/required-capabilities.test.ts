/**
 * `requiredClientCapabilities` on a tool, prompt, resource or template: a request that did not
 * declare one is answered -32021 with `data.requiredCapabilities` (an object keyed by capability)
 * before any host code runs; HTTP 400 (spec §1.2, §4.5). On 2025-11-25 the capabilities declared
 * at `initialize` are the ones checked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, PalisadeError } from '../../src/index.js';
import { mrtrDefinition } from '../fixtures/mrtr.js';
import { type MrtrPeer, mountMrtr } from '../support/mrtr-http.js';
import { INITIALIZE, modern, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

function missing(requiredCapabilities: Json): Json {
  return { code: -32021, message: 'Missing required client capability', data: { requiredCapabilities } };
}

describe('requiredClientCapabilities over HTTP (2026-07-28)', () => {
  let peer: MrtrPeer;
  beforeAll(async () => {
    peer = await mountMrtr(mrtrDefinition());
  });
  afterAll(() => peer.close());

  test('a tool needing sampling, called without it, is refused -32021 with HTTP 400 before its handler runs', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('tools/call', { name: 'needs_sampling' }, { capabilities: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ jsonrpc: '2.0', id: reply.body['id'], error: missing({ sampling: {} }) });
  });

  test('the same tool runs when this request declares sampling', async () => {
    const reply = await peer.call(
      'tools/call',
      { name: 'needs_sampling' },
      { capabilities: { sampling: {} } },
    );
    expect(reply.status).toBe(200);
    expect(reply.body['result']).toMatchObject({ content: [{ type: 'text', text: 'ran' }] });
  });

  test('a prompt needing roots is refused -32021 when the request lacks roots', async () => {
    const reply = await peer.call('prompts/get', { name: 'needs_roots' }, { capabilities: { sampling: {} } });
    expect(reply.status).toBe(400);
    expect(reply.body['error']).toEqual(missing({ roots: {} }));
  });

  test("a resource template's requirement is checked before its reader", {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('resources/read', { uri: 'mrtr://items/7' }, { capabilities: {} });
    expect(reply.status).toBe(400);
    expect(reply.body['error']).toEqual(missing({ roots: {} }));
  });

  test('a nested requirement names only the part the request lacks', async () => {
    const reply = await peer.call(
      'resources/read',
      { uri: 'mrtr://needs-elicitation' },
      { capabilities: { elicitation: { form: {} } } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body['error']).toEqual(missing({ elicitation: { url: {} } }));
  });
});

describe('requiredClientCapabilities over stdio', () => {
  test('2026-07-28: the refusal is the -32021 error on the pipe', { tags: ['threat-model'] }, async () => {
    const peer = startStdioServer('mrtr');
    try {
      const reply = await peer.request(modern(1, 'tools/call', { name: 'needs_sampling' }));
      expect(reply).toEqual({ jsonrpc: '2.0', id: 1, error: missing({ sampling: {} }) });
    } finally {
      await peer.close();
    }
  });

  test('2025-11-25: checked against the capabilities declared at initialize', {
    tags: ['threat-model'],
  }, async () => {
    const without = startStdioServer('mrtr');
    const withSampling = startStdioServer('mrtr');
    try {
      await without.request(INITIALIZE);
      const refused = await without.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'needs_sampling' },
      });
      expect(refused).toEqual({ jsonrpc: '2.0', id: 1, error: missing({ sampling: {} }) });

      await withSampling.request({
        ...INITIALIZE,
        params: { ...INITIALIZE.params, capabilities: { sampling: {} } },
      });
      const ran = await withSampling.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'needs_sampling' },
      });
      expect(ran['result']).toEqual({ content: [{ type: 'text', text: 'ran' }] });
    } finally {
      await without.close();
      await withSampling.close();
    }
  });
});

describe('requiredClientCapabilities at construction', () => {
  function toolWith(requiredClientCapabilities: unknown) {
    return () =>
      createServer({
        name: 's',
        version: '1',
        tools: [
          {
            name: 't',
            inputSchema: { type: 'object' },
            requiredClientCapabilities: requiredClientCapabilities as Json,
            handler: () => ({ content: [] }),
          },
        ],
      });
  }

  test('an unknown capability is refused by name', { tags: ['threat-model'] }, () => {
    expect(toolWith({ sampeling: {} })).toThrow(
      new PalisadeError(
        'PALISADE_ERR_CATALOG_INVALID',
        'tools[0].requiredClientCapabilities.sampeling is not a client capability; known: elicitation, experimental, extensions, roots, sampling',
      ),
    );
  });

  test('a capability given as something other than an object is refused by name', () => {
    expect(toolWith({ sampling: true })).toThrow(
      'tools[0].requiredClientCapabilities.sampling must be a plain object',
    );
  });

  test('a list in place of the object is refused', () => {
    expect(toolWith(['sampling'])).toThrow('tools[0].requiredClientCapabilities must be a plain object');
  });
});
