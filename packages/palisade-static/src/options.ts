import { StaticAnalysisError } from './errors.js';
import { MAX_FILE_BYTES, MAX_FILES } from './limits.js';
import { STATIC_LEVELS, type StaticLevel } from './shape.js';

/** A host-named group of modules for the boundary level: every module under `prefix` (relative to root). */
export interface BoundaryDeclaration {
  readonly name: string;
  readonly prefix: string;
}

export interface AnalyzeScopeOptions {
  /** The directory the scope is read under; module ids are relative to it. Required. */
  readonly root: string;
  /** Files or directories, relative to root, that make up the scope. Default `['.']`. */
  readonly include?: readonly string[];
  /** Granularity of the nodes. Default `'module'`. */
  readonly level?: StaticLevel;
  /**
   * Boundary level only: the host's groups, longest prefix first. Without it each module joins
   * the directory of its nearest `package.json` under root (a workspace package), else `.`.
   */
  readonly boundaries?: readonly BoundaryDeclaration[];
  /** Widens MAX_FILES. */
  readonly maxFiles?: number;
  /** Widens MAX_FILE_BYTES. */
  readonly maxFileBytes?: number;
}

export interface ResolvedOptions {
  readonly root: string;
  readonly include: readonly string[];
  readonly level: StaticLevel;
  readonly boundaries: readonly BoundaryDeclaration[] | undefined;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

const KEYS = new Set(['root', 'include', 'level', 'boundaries', 'maxFiles', 'maxFileBytes']);

function invalid(message: string): never {
  throw new StaticAnalysisError('PALISADE_STATIC_ERR_INVALID_OPTION', message);
}

/**
 * A path relative to root, in POSIX form, that stays under root. Refused otherwise: a scope that
 * reaches past its root would make module ids ambiguous and read files the host did not name.
 */
export function scopePath(option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    invalid(`option "${option}" must hold non-empty strings`);
  const posix = value.replaceAll('\\', '/');
  if (posix.startsWith('/') || /^[A-Za-z]:/.test(posix))
    invalid(`option "${option}": "${value}" is not relative to root`);
  const parts: string[] = [];
  for (const part of posix.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) invalid(`option "${option}": "${value}" leaves root`);
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

function bound(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    invalid(`option "${name}" must be a positive safe integer`);
  }
  return value;
}

export function resolveOptions(options: AnalyzeScopeOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) invalid('options must be an object');
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) {
      throw new StaticAnalysisError('PALISADE_STATIC_ERR_UNKNOWN_OPTION', `unknown option "${key}"`);
    }
  }
  if (typeof options.root !== 'string' || options.root.length === 0) invalid('option "root" is required');
  const level = options.level ?? 'module';
  if (!(STATIC_LEVELS as readonly string[]).includes(level)) {
    invalid(`option "level" must be one of ${STATIC_LEVELS.join(', ')}`);
  }
  const include = options.include ?? ['.'];
  if (!Array.isArray(include) || include.length === 0) invalid('option "include" must be a non-empty array');
  let boundaries: BoundaryDeclaration[] | undefined;
  if (options.boundaries !== undefined) {
    if (level !== 'boundary') invalid('option "boundaries" applies to level "boundary" only');
    if (!Array.isArray(options.boundaries)) invalid('option "boundaries" must be an array');
    boundaries = options.boundaries.map((b: BoundaryDeclaration) => {
      if (typeof b !== 'object' || b === null || typeof b.name !== 'string' || b.name.length === 0) {
        invalid('option "boundaries" must hold { name, prefix } objects with a non-empty name');
      }
      return { name: b.name, prefix: scopePath('boundaries', b.prefix) };
    });
  }
  return {
    root: options.root,
    include: [...new Set(include.map((p: unknown) => scopePath('include', p)))],
    level,
    boundaries,
    maxFiles: bound('maxFiles', options.maxFiles, MAX_FILES),
    maxFileBytes: bound('maxFileBytes', options.maxFileBytes, MAX_FILE_BYTES),
  };
}
