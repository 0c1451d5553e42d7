/**
 * Will-not-implement: an outbound connection, a client, OAuth. A server library that reaches out
 * is a different trust boundary; tokens are the host's `authorize` hook's business.
 */
import { describe, expect, test } from 'vitest';
import { noOAuth, noOutbound } from './rules-reach.js';
import { plant, runCensus } from './source.js';

describe('census: no outbound connection and no client module', () => {
  test('no source file dials out, fetches, or imports a client', () => {
    expect(runCensus(noOutbound)).toEqual([]);
  });

  test("a server made with node:http's createServer is not a violation", () => {
    const source = "import { createServer } from 'node:http';\nexport const s = createServer(() => {});\n";
    expect(plant(noOutbound, 'http/planted.ts', source)).toEqual([]);
  });

  test('a planted node:net connect is named', () => {
    const planted =
      "import { connect } from 'node:net';\nexport const socket = connect(443, 'example.com');\n";
    expect(plant(noOutbound, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 uses node:net connect',
    ]);
  });

  test('a planted request through a default import of node:http is named', () => {
    const planted = "import http from 'node:http';\nexport const r = http.request('http://example.com');\n";
    expect(plant(noOutbound, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:2 uses node:http request',
    ]);
  });

  test('a planted fetch is named', () => {
    const planted = "export async function ping() {\n  return fetch('https://example.com');\n}\n";
    expect(plant(noOutbound, 'protocol/planted.ts', planted)).toEqual([
      'protocol/planted.ts:2 uses the global fetch',
    ]);
  });

  test('a planted MCP client import is named', () => {
    const planted = "import { Client } from '@modelcontextprotocol/client';\nexport { Client };\n";
    expect(plant(noOutbound, 'index.ts', planted)).toEqual([
      'index.ts:1 imports the client package @modelcontextprotocol/client',
    ]);
  });

  test('a planted node:dgram import is named', () => {
    const planted = "import { createSocket } from 'node:dgram';\nexport const s = createSocket('udp4');\n";
    expect(plant(noOutbound, 'telemetry/planted.ts', planted)).toEqual([
      'telemetry/planted.ts:1 imports node:dgram',
    ]);
  });
});

describe('census: no OAuth', () => {
  test('no source file names OAuth, its endpoints, its grants or its tokens', () => {
    expect(runCensus(noOAuth)).toEqual([]);
  });

  test('a planted OAuth metadata path is named', () => {
    const planted = "export const METADATA = '/.well-known/oauth-authorization-server';\n";
    expect(plant(noOAuth, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 writes the text "/.well-known/oauth-authorization-server"',
    ]);
  });

  test('a planted token_endpoint key is named', () => {
    const planted = "export const server = { token_endpoint: 'https://example.com/token' };\n";
    expect(plant(noOAuth, 'http/planted.ts', planted)).toEqual(['http/planted.ts:1 names token_endpoint']);
  });
});
