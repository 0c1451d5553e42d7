/**
 * A Stryker reporter that appends each mutant's result to reports/mutation/<group>/live.ndjson as
 * soon as it is known. Stryker writes its JSON report only when a run ends, so a run stopped early
 * (by a deadline or a crash) would otherwise leave nothing; scripts/mutate/summary.ts reads this
 * file when the full report is missing and says the figures are partial.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const file = `reports/mutation/${process.env.PALISADE_MUTATE_GROUP ?? 'wire-reader'}/live.ndjson`;

class LiveReporter {
  static inject = [];

  onDryRunCompleted() {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
  }

  onMutantTested(result) {
    const { fileName, mutatorName, replacement, status, location } = result;
    const line = { fileName, mutatorName, replacement, status, location };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

// The shape declareClassPlugin from @stryker-mutator/api builds, written out to need no import.
export const strykerPlugins = [{ kind: 'Reporter', name: 'live', injectableClass: LiveReporter }];
