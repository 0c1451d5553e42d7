/**
 * The public API is pinned: `packages/palisade-mcp-client/api-report.json` records every export
 * name of the package, built by importing `dist/` through the exports map. A change to the surface
 * fails here until `npm run api-report` regenerates the file, so it shows in review as a diff.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type ApiReport, apiReport, CLIENT_PACKAGE, entryPoints } from '../../../../scripts/api-report.js';

const committed = JSON.parse(readFileSync(join(CLIENT_PACKAGE, 'api-report.json'), 'utf8')) as ApiReport;

describe('the public API report of palisade-mcp-client', () => {
  test('the committed report covers every subpath of the exports map', () => {
    expect(Object.keys(committed).sort()).toEqual(Object.keys(entryPoints(CLIENT_PACKAGE)).sort());
  });

  test('the built package exports exactly what the committed report records (regenerate: npm run api-report)', async () => {
    expect(await apiReport(CLIENT_PACKAGE)).toEqual(committed);
  });
});
