/**
 * `npm run mutate [-- <group or family>...]`: runs Stryker once per group (every group of
 * scripts/mutate/groups.mjs by default; a family such as `http` names its groups, run one after
 * another), then prints each group's score per file and its undetected mutants, and a line over
 * each family all of whose groups were chosen.
 * `npm run mutate -- --summary` prints the last reports without running anything.
 */
import { spawnSync } from 'node:child_process';
import { families, groups } from './groups.mjs';
import { type GroupResult, printFamily, printGroup } from './summary.ts';

const args = process.argv.slice(2);
const summaryOnly = args.includes('--summary');
const named = args.filter((arg) => arg !== '--summary');
for (const name of named) {
  if (!(name in groups) && !(name in families)) {
    const known = [...Object.keys(groups), ...Object.keys(families)].join(', ');
    console.error(`unknown group ${name}; the groups and families are ${known}`);
    process.exit(2);
  }
}
// A family stands for its groups in their order; a group named twice runs once.
const chosen = [
  ...new Set(named.length > 0 ? named.flatMap((name) => families[name] ?? [name]) : Object.keys(groups)),
];

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
const results = new Map<string, GroupResult | undefined>();
for (const group of chosen) results.set(group, printGroup(group));
for (const [family, members] of Object.entries(families)) {
  if (members.every((member) => results.has(member))) printFamily(family, members, results);
}
process.exit(failed ? 1 : 0);
