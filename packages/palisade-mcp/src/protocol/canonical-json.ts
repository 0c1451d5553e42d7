/**
 * One text per JSON value, so two equal values hash alike: object members sorted by key (UTF-16
 * code units), no whitespace, numbers and strings as `JSON.stringify` writes them. Used for what
 * a `requestState` is bound to. Anything that is not plain JSON data (a class instance, a
 * function, a BigInt, a non-finite number, a cycle) has no canonical text: `undefined`.
 */
import { isPlainObject } from '../options.js';

/** Deep enough for any message the wire admits (64) plus a host's state; a cycle stops here. */
const MAX_CANONICAL_DEPTH = 128;

export function canonicalJson(value: unknown): string | undefined {
  return write(value, 0);
}

function write(value: unknown, depth: number): string | undefined {
  if (depth > MAX_CANONICAL_DEPTH) return undefined;
  // No `auth` (a host without one) is null on every session request: its text without a stringify.
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : undefined;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const text = write(item, depth + 1);
      if (text === undefined) return undefined;
      items.push(text);
    }
    return `[${items.join(',')}]`;
  }
  if (!isPlainObject(value)) return undefined;
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    // JSON leaves an undefined member out; so does its canonical text.
    if (value[key] === undefined) continue;
    const text = write(value[key], depth + 1);
    if (text === undefined) return undefined;
    members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
