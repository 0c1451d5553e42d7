/**
 * The expected-failures baseline: the suite's own YAML format (`server:` then `- scenario` or
 * `- scenario:check-id`, a `# reason` per entry, or `server: []` for none), read here too so that the runner can hold its own
 * PASS/WARN/FAIL table to it in both directions. Only that shape is accepted; anything else is
 * refused with its line number rather than half-read.
 */
import { readFileSync } from 'node:fs';

export interface BaselineEntry {
  readonly scenario: string;
  /** Absent: the whole scenario may fail. */
  readonly checkId?: string;
  readonly line: number;
}

const ENTRY = /^ {2}- ([A-Za-z0-9_./-]+)(?::([A-Za-z0-9_.$/-]+))?\s+# \S.*$/;

export function readBaseline(
  file: string,
  section: 'server' | 'client' = 'server',
): readonly BaselineEntry[] {
  const entries: BaselineEntry[] = [];
  let inServer = false;
  for (const [index, raw] of readFileSync(file, 'utf8').split('\n').entries()) {
    const line = index + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    if (raw === `${section}:`) {
      inServer = true;
      continue;
    }
    // Nothing expected to fail: the suite reads `server: []` as the empty list; so do we.
    if (raw === 'server: []' && entries.length === 0 && !inServer) continue;
    const match = inServer ? ENTRY.exec(raw) : null;
    if (match === null) {
      throw new Error(
        `${file}:${line}: expected "${section}:" then "  - scenario[:check-id]  # reason" lines, got ${JSON.stringify(raw)}`,
      );
    }
    const [, scenario = '', checkId] = match;
    entries.push(checkId === undefined ? { scenario, line } : { scenario, checkId, line });
  }
  return entries;
}

export type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

export interface Check {
  readonly id: string;
  readonly status: Status;
  readonly errorMessage?: string;
}

export interface Verdict {
  /** Failing (FAILURE or WARNING) and not baselined: a regression. */
  readonly unexpected: readonly string[];
  /** Baselined but passing now: the baseline must shrink. */
  readonly stale: readonly string[];
  readonly expected: readonly string[];
}

const failing = (check: Check): boolean => check.status === 'FAILURE' || check.status === 'WARNING';

/**
 * The suite's own rule (rule 2): a check fails if it is FAILURE or WARNING; a whole-scenario entry
 * is stale when no check fails; a per-check entry is stale when that check is SUCCESS. Entries
 * for scenarios that did not run in this leg say nothing about it.
 */
export function judge(
  results: ReadonlyMap<string, readonly Check[]>,
  baseline: readonly BaselineEntry[],
): Verdict {
  const unexpected: string[] = [];
  const stale: string[] = [];
  const expected: string[] = [];
  for (const [scenario, checks] of results) {
    const whole = baseline.some((entry) => entry.scenario === scenario && entry.checkId === undefined);
    const perCheck = new Set(
      baseline.flatMap((entry) =>
        entry.scenario === scenario && entry.checkId !== undefined ? [entry.checkId] : [],
      ),
    );
    const failed = checks.filter(failing);
    if (whole) {
      (failed.length > 0 ? expected : stale).push(scenario);
      continue;
    }
    for (const check of failed)
      (perCheck.has(check.id) ? expected : unexpected).push(`${scenario}:${check.id}`);
    for (const id of perCheck) {
      if (checks.find((check) => check.id === id && check.status !== 'INFO')?.status === 'SUCCESS')
        stale.push(`${scenario}:${id}`);
    }
  }
  return { unexpected, stale, expected };
}
