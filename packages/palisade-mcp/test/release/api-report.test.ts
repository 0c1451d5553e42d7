/**
 * The public API is pinned: `packages/palisade-mcp/api-report.json` records every export name of
 * every subpath, built by importing `dist/` through the exports map. A change to the surface fails
 * here until `npm run api-report` regenerates the file, so the change shows up in review as a diff.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type ApiReport, apiReport, entryPoints, REPORT_PATH } from '../../../../scripts/api-report.js';

const committed = JSON.parse(readFileSync(REPORT_PATH, 'utf8')) as ApiReport;

describe('the public API report', () => {
  test('the committed report covers every subpath of the exports map', () => {
    expect(Object.keys(committed).sort()).toEqual(Object.keys(entryPoints()).sort());
  });

  test('the built package exports exactly what the committed report records (regenerate: npm run api-report)', async () => {
    expect(await apiReport()).toEqual(committed);
  });
});
