/**
 * The runner's own baseline verdict (`src/baseline.ts`), which `npm run conformance` applies to
 * its PASS/WARN/FAIL table beside the suite's: it must fail the run in both directions, with a
 * WARNING counted as a failure.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Check, judge, readBaseline } from '../src/baseline.ts';

function baselineOf(text: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'baseline-')), 'expected-failures.yml');
  writeFileSync(file, text);
  return readBaseline(file);
}

const ok: Check = { id: 'a', status: 'SUCCESS' };
const warned: Check = { id: 'b', status: 'WARNING' };

describe('the runner’s baseline verdict', () => {
  test('a scenario whose only failing check is a WARNING is a regression when not listed', () => {
    const verdict = judge(new Map([['s', [ok, warned]]]), baselineOf('server:\n'));
    expect(verdict.unexpected).toEqual(['s:b']);
  });

  test('server: [] lists nothing, so any failing check is a regression', () => {
    const verdict = judge(new Map([['s', [ok, warned]]]), baselineOf('# none\nserver: []\n'));
    expect(verdict.unexpected).toEqual(['s:b']);
  });

  test('server: [] followed by an entry is refused with its line', () => {
    expect(() => baselineOf('server: []\n  - s  # reason\n')).toThrow(/expected-failures\.yml:2:/);
  });

  test('a listed scenario that now passes is reported stale', () => {
    const verdict = judge(new Map([['s', [ok]]]), baselineOf('server:\n  - s  # reason\n'));
    expect(verdict.stale).toEqual(['s']);
  });

  test('a listed check is stale only when it succeeded, not when the scenario lacks it', () => {
    const listed = baselineOf('server:\n  - s:a  # reason\n  - s:gone  # reason\n');
    expect(judge(new Map([['s', [ok]]]), listed).stale).toEqual(['s:a']);
  });

  test('an entry without a reason comment is refused with its line number', () => {
    expect(() => baselineOf('server:\n  - s\n')).toThrow(/expected-failures\.yml:2:/);
  });
});
