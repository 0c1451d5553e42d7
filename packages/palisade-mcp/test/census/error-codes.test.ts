/**
 * One catalogue of JSON-RPC error codes (src/wire/codes.ts, exported from `palisade-mcp/wire` and
 * `palisade-mcp`): every refusal table in the server, palisade-mcp-auth and
 * palisade-mcp-connectome names its codes from it, and no file writes a code's number by hand.
 */
import { describe, expect, test } from 'vitest';
import * as wire from '../../src/wire/index.js';
import { rawErrorCodeCensus } from './rules-code.js';
import { plant, runCensus, sourceFiles } from './source.js';

const CATALOGUE = 'wire/codes.ts';

describe('census: every JSON-RPC error code is named in one catalogue', () => {
  test('no file of the server package writes a code outside the catalogue', () => {
    expect(runCensus(rawErrorCodeCensus(CATALOGUE))).toEqual([]);
  });

  test('no file of palisade-mcp-auth or palisade-mcp-connectome writes a code', () => {
    const files = [...sourceFiles('palisade-mcp-auth'), ...sourceFiles('palisade-mcp-connectome')];
    expect(files.length).toBeGreaterThan(10);
    expect(runCensus(rawErrorCodeCensus(undefined), files)).toEqual([]);
  });

  test('the catalogue itself is read and holds the codes', () => {
    const [catalogue] = sourceFiles().filter(({ file }) => file === CATALOGUE);
    expect(plant(rawErrorCodeCensus(undefined), CATALOGUE, catalogue?.source ?? '')).toHaveLength(10);
  });

  test('a planted code in a refusal table is named', () => {
    const planted = "export const REFUSAL = { code: -32600, message: 'Invalid request' };\n";
    expect(plant(rawErrorCodeCensus(CATALOGUE), 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 writes the code 32600 by hand',
    ]);
  });

  test('a planted code spelled inside a text is named', () => {
    const planted = 'export const BODY = \'{"error":{"code":-32603}}\';\n';
    expect(plant(rawErrorCodeCensus(CATALOGUE), 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 spells -32603 in text',
    ]);
  });

  test('a code named in a comment is not a violation', () => {
    const source = '/** Answered -32602 when the cursor is malformed. */\nexport const PAGE = 50;\n';
    expect(plant(rawErrorCodeCensus(CATALOGUE), 'protocol/planted.ts', source)).toEqual([]);
  });

  test('the catalogue exported from palisade-mcp/wire holds the codes JSON-RPC 2.0 and MCP define', () => {
    expect({
      PARSE_ERROR: wire.PARSE_ERROR,
      INVALID_REQUEST: wire.INVALID_REQUEST,
      METHOD_NOT_FOUND: wire.METHOD_NOT_FOUND,
      INVALID_PARAMS: wire.INVALID_PARAMS,
      INTERNAL_ERROR: wire.INTERNAL_ERROR,
      SERVER_BUSY: wire.SERVER_BUSY,
      RESOURCE_NOT_FOUND: wire.RESOURCE_NOT_FOUND,
      HEADER_MISMATCH: wire.HEADER_MISMATCH,
      MISSING_CLIENT_CAPABILITY: wire.MISSING_CLIENT_CAPABILITY,
      UNSUPPORTED_PROTOCOL_VERSION: wire.UNSUPPORTED_PROTOCOL_VERSION,
    }).toEqual({
      PARSE_ERROR: -32700,
      INVALID_REQUEST: -32600,
      METHOD_NOT_FOUND: -32601,
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
      SERVER_BUSY: -32000,
      RESOURCE_NOT_FOUND: -32002,
      HEADER_MISMATCH: -32020,
      MISSING_CLIENT_CAPABILITY: -32021,
      UNSUPPORTED_PROTOCOL_VERSION: -32022,
    });
  });
});
