/**
 * Resolves a specifier the way TypeScript's NodeNext reads a source tree, without Node's
 * loader and without running anything: a relative `./x.js` names `./x.ts` (then `.tsx`, then
 * the `.js` itself), `.mjs` names `.mts`, `.cjs` names `.cts`. An extensionless relative
 * specifier (CommonJS `require('./x')`, bundler style) is tried with each source extension
 * and then as a directory's `index`. Bare specifiers and built-ins are outside the scope.
 */
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

export type Resolution =
  | { readonly kind: 'module'; readonly id: string }
  /** An npm package (`npm:<name>`) or a Node.js built-in (`node:<name>`). */
  | { readonly kind: 'package' | 'builtin'; readonly id: string }
  /** A relative path that exists but lies outside the scope, or leaves root. */
  | { readonly kind: 'outside-scope' }
  /** Nothing at that path, an absolute path or URL, or a `#` subpath import (package.json `imports` is not read). */
  | { readonly kind: 'unresolved' };

const BUILTINS = new Set(builtinModules);
const BARE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SUBSTITUTES: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

function candidates(target: string): string[] {
  const ext = path.posix.extname(target);
  const substitutes = SUBSTITUTES[ext];
  if (substitutes !== undefined) {
    const base = target.slice(0, -ext.length);
    return substitutes.map((s) => base + s);
  }
  if (BARE_EXTENSIONS.includes(ext)) return [target];
  return [...BARE_EXTENSIONS.map((e) => target + e), ...BARE_EXTENSIONS.map((e) => `${target}/index${e}`)];
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function resolveSpecifier(
  root: string,
  from: string,
  specifier: string,
  scope: ReadonlySet<string>,
): Resolution {
  if (specifier.startsWith('node:')) return { kind: 'builtin', id: specifier };
  if (BUILTINS.has(specifier)) return { kind: 'builtin', id: `node:${specifier}` };
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
    if (joined === '..' || joined.startsWith('../')) return { kind: 'outside-scope' };
    const tried = candidates(joined === '.' ? 'index' : joined);
    for (const candidate of tried) if (scope.has(candidate)) return { kind: 'module', id: candidate };
    // Only now touch the disk, and only under root, to tell "not in scope" from "not there".
    for (const candidate of tried)
      if (existsSync(path.join(root, candidate))) return { kind: 'outside-scope' };
    return { kind: 'unresolved' };
  }
  if (specifier.startsWith('#') || specifier.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(specifier)) {
    return { kind: 'unresolved' };
  }
  return { kind: 'package', id: `npm:${packageName(specifier)}` };
}
