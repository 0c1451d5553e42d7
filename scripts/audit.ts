/**
 * `npm run audit:prod` (and `.ci/run`): `npm audit` over the runtime dependencies of every
 * workspace package (`--omit=dev`), failing on any advisory rated high or critical.
 *
 * `npm audit` exits 1 both when it finds something and when the registry's advisory endpoint does
 * not answer, so the verdict is read from its JSON instead: an endpoint that cannot be reached is
 * reported on stderr and does not fail the run (a mirror without the bulk advisory endpoint answers
 * 405), unless `--strict` is given. `--report <file>` judges a saved `npm audit --json` report.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inServerProject } from './sbom.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Advisories at these severities fail the audit. */
const FAILING = ['high', 'critical'] as const;

export type Verdict =
  | { readonly kind: 'clean'; readonly counts: Readonly<Record<string, number>> }
  | { readonly kind: 'vulnerable'; readonly findings: readonly string[] }
  | { readonly kind: 'unavailable'; readonly reason: string };

interface Report {
  readonly auditReportVersion?: number;
  readonly vulnerabilities?: Record<string, { readonly severity?: string; readonly range?: string }>;
  readonly metadata?: { readonly vulnerabilities?: Record<string, number> };
  readonly message?: string;
  readonly statusCode?: number;
}

/** What one `npm audit --json` report means for CI. */
export function verdict(text: string): Verdict {
  let report: Report;
  try {
    report = JSON.parse(text) as Report;
  } catch {
    return { kind: 'unavailable', reason: 'npm audit printed no JSON report' };
  }
  if (report.auditReportVersion === undefined || report.metadata?.vulnerabilities === undefined) {
    const status = report.statusCode === undefined ? '' : ` (HTTP ${report.statusCode})`;
    return { kind: 'unavailable', reason: `${report.message ?? 'no advisory report'}${status}` };
  }
  const findings = Object.entries(report.vulnerabilities ?? {})
    .filter(([, v]) => (FAILING as readonly string[]).includes(v.severity ?? ''))
    .map(([name, v]) => `${name} ${v.range ?? ''}: ${v.severity}`.replace(' :', ':'));
  const counted = FAILING.reduce((sum, level) => sum + (report.metadata?.vulnerabilities?.[level] ?? 0), 0);
  if (findings.length > 0 || counted > 0) return { kind: 'vulnerable', findings };
  return { kind: 'clean', counts: report.metadata.vulnerabilities };
}

/** Of two verdicts, the one CI must act on: vulnerable, then unavailable, then clean. */
export function worst(a: Verdict, b: Verdict): Verdict {
  if (a.kind === 'vulnerable' && b.kind === 'vulnerable') {
    return { kind: 'vulnerable', findings: [...new Set([...a.findings, ...b.findings])] };
  }
  for (const kind of ['vulnerable', 'unavailable'] as const) {
    if (a.kind === kind) return a;
    if (b.kind === kind) return b;
  }
  return a;
}

function runAudit(cwd: string): string {
  try {
    return execFileSync('npm', ['audit', '--omit=dev', '--json'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    // Exit status 1 is also how npm reports findings: the JSON on stdout decides.
    return String((error as { stdout?: unknown }).stdout ?? '');
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--report');
  const file = at === -1 ? undefined : process.argv[at + 1];
  // The workspace's runtime dependencies, then the server package as it ships: Ajv is compiled
  // into its bundle (scripts/bundle-config.mjs), a development dependency of the workspace that
  // `--omit=dev` would skip, so it is audited in a project where it is a runtime dependency.
  const result =
    file === undefined
      ? worst(
          verdict(runAudit(ROOT)),
          inServerProject((project) => verdict(runAudit(project))),
        )
      : verdict(readFileSync(file, 'utf8'));
  if (result.kind === 'clean') {
    console.log(
      `npm audit (runtime dependencies): no high or critical advisory (${JSON.stringify(result.counts)})`,
    );
  } else if (result.kind === 'vulnerable') {
    console.error('npm audit (runtime dependencies): high or critical advisories:');
    for (const line of result.findings) console.error(`  ${line}`);
    process.exitCode = 1;
  } else {
    console.error(
      `npm audit (runtime dependencies): NOT CHECKED, the advisory endpoint failed: ${result.reason}`,
    );
    if (process.argv.includes('--strict')) process.exitCode = 1;
  }
}
