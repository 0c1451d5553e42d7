/**
 * Prints what a `npm run mutate` group left behind in reports/mutation/<group>/mutation.json:
 * the score per file and per group, then every mutant no test detected (file:line, mutator,
 * replacement), and for a family of groups (`http`) a line over all of them. Stryker's
 * clear-text reporter prints each survivor as a multi-line diff, which buries the count; this is
 * the compact view docs/mutation-testing.md is written from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Mutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end: { readonly line: number; readonly column: number };
  };
}

interface Report {
  readonly files: Record<string, { readonly mutants: readonly Mutant[]; readonly source?: string }>;
}

/** Counted as Stryker counts them: a timeout detects a mutant, a mutant that cannot run is not scored. */
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export interface Tally {
  detected: number;
  undetected: number;
  unscored: number;
}

function score(tally: Tally): string {
  const valid = tally.detected + tally.undetected;
  return valid === 0 ? '-' : `${((100 * tally.detected) / valid).toFixed(2)}%`;
}

function tallyOf(mutants: readonly Mutant[]): Tally {
  const tally: Tally = { detected: 0, undetected: 0, unscored: 0 };
  for (const mutant of mutants) {
    if (DETECTED.has(mutant.status)) tally.detected += 1;
    else if (UNDETECTED.has(mutant.status)) tally.undetected += 1;
    else tally.unscored += 1;
  }
  return tally;
}

function row(name: string, tally: Tally): string {
  const cells = [String(tally.detected), String(tally.undetected), String(tally.unscored), score(tally)];
  return `${name.padEnd(48)} ${cells.map((cell) => cell.padStart(9)).join(' ')}`;
}

/** The full report, or failing that the mutants the live reporter recorded before a run stopped. */
function readReport(group: string): { files: Report['files']; partial: boolean } | undefined {
  const full = `reports/mutation/${group}/mutation.json`;
  if (existsSync(full))
    return { files: (JSON.parse(readFileSync(full, 'utf8')) as Report).files, partial: false };
  const live = `reports/mutation/${group}/live.ndjson`;
  if (!existsSync(live)) return undefined;
  const files: Record<string, { mutants: Mutant[]; source?: string }> = {};
  for (const line of readFileSync(live, 'utf8').split('\n')) {
    if (line === '') continue;
    const mutant = JSON.parse(line) as Mutant & { fileName: string };
    const file = relative(process.cwd(), mutant.fileName);
    const entry = files[file] ?? { mutants: [] };
    entry.mutants.push(mutant);
    files[file] = entry;
  }
  return { files, partial: true };
}

/** The source text a mutant replaces, on one line and cut short; undefined without the source. */
function originalText(lines: readonly string[] | undefined, mutant: Mutant): string | undefined {
  const { start, end } = mutant.location;
  const first = lines?.[start.line - 1];
  if (first === undefined) return undefined;
  const text =
    start.line === end.line
      ? first.slice(start.column - 1, end.column - 1)
      : `${first.slice(start.column - 1)} ...`;
  return text.replace(/\s+/g, ' ').slice(0, 80);
}

/** What a group's report adds up to, and whether the run that wrote it ended. */
export interface GroupResult {
  readonly tally: Tally;
  readonly partial: boolean;
}

/** Returns the group's totals, or undefined when it has no report yet. */
export function printGroup(group: string): GroupResult | undefined {
  const report = readReport(group);
  if (report === undefined) {
    console.log(`${group}: no report in reports/mutation/${group}/; run \`npm run mutate -- ${group}\``);
    return undefined;
  }
  const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b));
  console.log(
    `\n${group}${report.partial ? ' (PARTIAL: the run stopped early; only the mutants tested so far)' : ''}`,
  );
  console.log(
    `${'file'.padEnd(48)} ${['detected', 'undetect', 'unscored', 'score'].map((h) => h.padStart(9)).join(' ')}`,
  );
  const all: Mutant[] = [];
  for (const [file, { mutants }] of files) {
    all.push(...mutants);
    console.log(row(relative('packages/palisade-mcp/src', file), tallyOf(mutants)));
  }
  const total = tallyOf(all);
  console.log(row(`all of ${group}`, total));
  for (const [file, { mutants, source }] of files) {
    const lines = source?.split('\n');
    const left = mutants
      .filter((mutant) => UNDETECTED.has(mutant.status))
      .sort((a, b) => a.location.start.line - b.location.start.line);
    for (const mutant of left) {
      const { start, end } = mutant.location;
      // The span, not only where it starts: mutants of `a` and of `a && b` start at one column,
      // and reading one for the other once made an equivalent mutant look like a false survivor.
      const span = `${start.line}:${start.column}-${end.line === start.line ? '' : `${end.line}:`}${end.column}`;
      const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
      const original = originalText(lines, mutant);
      const change = original === undefined ? replacement : `${original}  ->  ${replacement}`;
      console.log(`  ${mutant.status.padEnd(10)} ${file}:${span}  ${mutant.mutatorName}  ${change}`);
    }
  }
  return { tally: total, partial: report.partial };
}

/**
 * One row per group of a family and a row over them all, counting every group that has a report.
 * The figure is the family's score only once every group has a complete report; until then the
 * heading and each row say which groups are partial (counted so far) and which have no report
 * (not counted).
 */
export function printFamily(
  family: string,
  members: readonly string[],
  results: ReadonlyMap<string, GroupResult | undefined>,
): void {
  const partial = members.filter((member) => results.get(member)?.partial === true);
  const missing = members.filter((member) => results.get(member) === undefined);
  const complete = members.length - partial.length - missing.length;
  const state =
    complete === members.length
      ? `every one of its ${members.length} groups complete`
      : [
          `INCOMPLETE: ${complete} of ${members.length} groups complete`,
          partial.length > 0 ? `partial, counted so far: ${partial.join(', ')}` : '',
          missing.length > 0 ? `no report, not counted: ${missing.join(', ')}` : '',
        ]
          .filter((part) => part !== '')
          .join('; ');
  console.log(`\nall of ${family} (${state})`);
  console.log(
    `${'group'.padEnd(48)} ${['detected', 'undetect', 'unscored', 'score'].map((h) => h.padStart(9)).join(' ')}`,
  );
  const total: Tally = { detected: 0, undetected: 0, unscored: 0 };
  for (const member of members) {
    const result = results.get(member);
    if (result === undefined) {
      console.log(`${member} (no report)`);
      continue;
    }
    total.detected += result.tally.detected;
    total.undetected += result.tally.undetected;
    total.unscored += result.tally.unscored;
    console.log(row(`${member}${result.partial ? ' (PARTIAL)' : ''}`, result.tally));
  }
  const mark = complete === members.length ? '' : ' (INCOMPLETE)';
  console.log(row(`all of ${family}${mark}`, total));
}
