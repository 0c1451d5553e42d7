/**
 * `npm run mutate [-- <group>...]`: runs Stryker once per group (wire, http, stdio by default; see
 * scripts/mutate/groups.mjs), then prints each group's score per file and its undetected mutants.
 * `npm run mutate -- --summary` prints the last reports without running anything.
 */
import { spawnSync } from 'node:child_process';
import { groups } from './groups.mjs';
import { printGroup } from './summary.ts';

const args = process.argv.slice(2);
const summaryOnly = args.includes('--summary');
const named = args.filter((arg) => arg !== '--summary');
for (const name of named) {
  if (!(name in groups)) {
    console.error(`unknown group ${name}; the groups are ${Object.keys(groups).join(', ')}`);
    process.exit(2);
  }
}
const chosen = named.length > 0 ? named : Object.keys(groups);

let failed = false;
if (!summaryOnly) {
  for (const group of chosen) {
    const started = Date.now();
    const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
      stdio: 'inherit',
      env: { ...process.env, PALISADE_MUTATE_GROUP: group },
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`${group}: stryker exited ${run.status} after ${seconds} s`);
    failed ||= run.status !== 0;
  }
}
for (const group of chosen) printGroup(group);
process.exit(failed ? 1 : 0);
