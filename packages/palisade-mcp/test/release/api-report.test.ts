/**
 * The public API is pinned: `packages/palisade-mcp/api-report.json` records every export name of
 * every subpath, built by importing `dist/` through the exports map. A change to the surface fails
 * here until `npm run api-report` regenerates the file, so the change shows up in review as a diff.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
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

describe('the diagnostics channel names', () => {
  test('each channel name is exported from exactly one entry, the package root', async () => {
    const exporters = new Map<string, string[]>();
    for (const [specifier, file] of Object.entries(entryPoints())) {
      const namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(namespace)) {
        if (typeof value !== 'string' || !value.startsWith('palisade:')) continue;
        exporters.set(`${name} = ${value}`, [...(exporters.get(`${name} = ${value}`) ?? []), specifier]);
      }
    }
    expect(Object.fromEntries(exporters)).toEqual({
      'DISPATCH_CHANNEL_NAME = palisade:dispatch': ['palisade-mcp'],
      'HTTP_REFUSAL_CHANNEL = palisade:http-refusal': ['palisade-mcp'],
      'STDIO_REFUSAL_CHANNEL = palisade:stdio-refusal': ['palisade-mcp'],
    });
  });
});
