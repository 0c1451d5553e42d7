/**
 * `npm run sbom` and the CI audit step. The SBOM must describe the server package and its runtime
 * closure as the lock file pins it, and nothing from development; the audit verdict must fail on a
 * high or critical advisory and must not mistake an unreachable advisory endpoint for a clean bill.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { verdict, worst } from '../../../../scripts/audit.js';
import { INLINED_PACKAGES } from '../../../../scripts/bundle-config.mjs';
import { sbom } from '../../../../scripts/sbom.js';

interface Component {
  readonly name: string;
  readonly version: string;
  readonly purl?: string;
  readonly scope?: string;
  readonly hashes?: readonly { alg: string }[];
}

const ROOT_MANIFEST = fileURLToPath(new URL('../../../../package.json', import.meta.url));
const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));
const LOCK = fileURLToPath(new URL('../../../../package-lock.json', import.meta.url));

const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
};
/** What ships: the declared dependencies and the packages compiled into the bundle. */
const SHIPPED = [...Object.keys(manifest.dependencies ?? {}), ...INLINED_PACKAGES];
const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { packages: Record<string, { version: string }> };

let document: { metadata: { component: Component }; components: Component[]; bomFormat: string };

describe('npm run sbom', () => {
  beforeAll(() => {
    document = sbom() as typeof document;
  });

  test('the SBOM is CycloneDX and describes palisade-mcp at its manifest version', () => {
    expect(document.bomFormat).toBe('CycloneDX');
    expect(document.metadata.component.name).toBe(manifest.name);
    expect(document.metadata.component.version).toBe(manifest.version);
  });

  test('the SBOM lists every runtime dependency, compiled in or installed, at the version the lock file pins', () => {
    expect(SHIPPED.length).toBeGreaterThan(0);
    for (const name of SHIPPED) {
      const pinned =
        lock.packages[`packages/palisade-mcp/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
      expect(
        document.components.find((c) => c.name === name),
        name,
      ).toMatchObject({ version: pinned?.version });
    }
  });

  test('the SBOM lists what the compiled-in packages depend on, since that code ships too', () => {
    const names = document.components.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['fast-uri', 'fast-deep-equal', 'json-schema-traverse']));
  });

  test('the SBOM holds no development dependency', () => {
    const dev = Object.keys(
      (JSON.parse(readFileSync(ROOT_MANIFEST, 'utf8')) as { devDependencies: Record<string, string> })
        .devDependencies,
    );
    expect(document.components.filter((c) => dev.includes(c.name)).map((c) => c.name)).toEqual([]);
  });

  test('every component in the SBOM carries a purl and a SHA-512 hash', () => {
    for (const c of document.components) {
      expect(c.purl, c.name).toBe(`pkg:npm/${c.name.replace('@', '%40')}@${c.version}`);
      expect(
        c.hashes?.map((h) => h.alg),
        c.name,
      ).toContain('SHA-512');
    }
  });
});

describe('the CI audit verdict', () => {
  const report = (high: number, critical: number) =>
    JSON.stringify({
      auditReportVersion: 2,
      vulnerabilities:
        high + critical === 0 ? {} : { ajv: { severity: high > 0 ? 'high' : 'critical', range: '<9' } },
      metadata: {
        vulnerabilities: { info: 0, low: 0, moderate: 1, high, critical, total: 1 + high + critical },
      },
    });

  test('a report with a high advisory fails the audit', () => {
    expect(verdict(report(1, 0))).toEqual({ kind: 'vulnerable', findings: ['ajv <9: high'] });
  });

  test('a report with a critical advisory fails the audit', () => {
    expect(verdict(report(0, 1)).kind).toBe('vulnerable');
  });

  test('a report with only moderate advisories passes the audit', () => {
    expect(verdict(report(0, 0)).kind).toBe('clean');
  });

  test('a high advisory against the shipped server fails the audit even when the workspace is clean', () => {
    expect(worst(verdict(report(0, 0)), verdict(report(1, 0))).kind).toBe('vulnerable');
  });

  test('an unreachable endpoint for either audit is reported as not checked, never as clean', () => {
    const failed = JSON.stringify({ message: 'unreachable', statusCode: 405 });
    expect(worst(verdict(report(0, 0)), verdict(failed)).kind).toBe('unavailable');
  });

  test('an advisory endpoint that answers 405 is reported as not checked, never as clean', () => {
    const failed = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
      error: { summary: '', detail: '' },
    });
    expect(verdict(failed)).toMatchObject({ kind: 'unavailable' });
  });
});
