/**
 * Finds the scope's source files without reading them. Symbolic links are listed, never
 * followed: a link can point anywhere, and the scope is what lies under root. `node_modules`
 * and dot-directories are skipped; packages are outside the scope by definition.
 */
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { StaticAnalysisError } from './errors.js';
import type { Incomplete } from './shape.js';

/** What TypeScript's NodeNext and Node load as code. Declaration files hold no runtime code. */
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const DECLARATION = /\.d\.[cm]?ts$|\.d\.[^.]+\.[cm]?ts$/;

export function isSource(name: string): boolean {
  return SOURCE.test(name) && !DECLARATION.test(name);
}

export interface Scan {
  readonly files: readonly string[];
  readonly listed: readonly Incomplete[];
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'ERROR';
}

export function scanScope(root: string, include: readonly string[], maxFiles: number): Scan {
  const files = new Set<string>();
  const listed: Incomplete[] = [];
  const add = (id: string): void => {
    files.add(id);
    if (files.size > maxFiles) {
      throw new StaticAnalysisError(
        'PALISADE_STATIC_ERR_TOO_MANY_FILES',
        `the scope holds more than ${maxFiles} source files (maxFiles); name a narrower include`,
      );
    }
  };
  const join = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`);

  for (const entry of include) {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path.join(root, entry));
    } catch (error) {
      throw new StaticAnalysisError(
        'PALISADE_STATIC_ERR_INVALID_OPTION',
        `option "include": "${entry}" cannot be read (${errorCode(error)})`,
      );
    }
    if (stat.isSymbolicLink()) {
      listed.push({ file: entry, line: 0, reason: 'symlink', detail: entry });
      continue;
    }
    if (stat.isFile()) {
      if (isSource(entry)) add(entry);
      continue;
    }
    // An explicit work list, not recursion: a deep tree must not exhaust the stack.
    const pending = [entry];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      let entries: Dirent[];
      try {
        entries = readdirSync(path.join(root, dir), { withFileTypes: true });
      } catch (error) {
        listed.push({ file: dir, line: 0, reason: 'unreadable', detail: errorCode(error) });
        continue;
      }
      for (const item of entries) {
        const id = join(dir, item.name);
        if (item.isSymbolicLink()) {
          if (isSource(item.name)) listed.push({ file: id, line: 0, reason: 'symlink', detail: id });
        } else if (item.isDirectory()) {
          if (item.name !== 'node_modules' && !item.name.startsWith('.')) pending.push(id);
        } else if (item.isFile() && isSource(item.name)) {
          add(id);
        }
      }
    }
  }
  return { files: [...files].sort(), listed };
}
