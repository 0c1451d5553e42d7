/**
 * Preloaded into the conformance suite's process (`node --import`): suite 0.2.0-alpha.12 imports
 * `globSync` from `fs`, which Node gained in 22, and our floor is Node 20. On Node 20 only, this
 * defines it for the one pattern the suite uses (`**\/checks.json` under a `cwd`). It must run
 * before anything imports `fs` as an ES module, because Node fixes a built-in module's named
 * exports when its ES facade is first created; `process.getBuiltinModule` reads the CommonJS
 * object without creating that facade.
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';

const fs = process.getBuiltinModule('node:fs') as typeof Fs & { globSync?: unknown };
const path = process.getBuiltinModule('node:path') as typeof Path;

/** Relative paths (with `/`) of every file named `name` at any depth under `root`. */
function filesNamed(root: string, name: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name === name) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

if (typeof fs.globSync !== 'function') {
  fs.globSync = (pattern: string, options?: { cwd?: string }): string[] => {
    const name = pattern.startsWith('**/') ? pattern.slice(3) : undefined;
    // Anything beyond `**/<plain file name>` would need a real glob: refuse it rather than guess.
    if (name === undefined || name === '' || /[*?[\]{}/]/.test(name)) {
      throw new Error(`glob-sync-preload: only "**/<file name>" is supported on Node 20, not ${pattern}`);
    }
    return filesNamed(options?.cwd ?? process.cwd(), name);
  };
}
