/**
 * The capability census: advertised keys compared with the property names each revision's schema
 * gives `ServerCapabilities`, as copied into `test/fixtures/spec/<revision>.server-capabilities.json`.
 */
import { readFileSync } from 'node:fs';

/** Property names, nested where the schema names the nested object's properties; null below that. */
export interface KeyTree {
  readonly [key: string]: KeyTree | null;
}

export function definedKeys(revision: string): KeyTree {
  const url = new URL(`../fixtures/spec/${revision}.server-capabilities.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { ServerCapabilities: KeyTree }).ServerCapabilities;
}

/** Every advertised key, at any depth the schema names, that the schema does not define. */
export function undefinedCapabilities(
  advertised: unknown,
  defined: KeyTree,
  path = 'capabilities',
): string[] {
  if (typeof advertised !== 'object' || advertised === null || Array.isArray(advertised)) return [];
  return Object.entries(advertised).flatMap(([key, value]) => {
    if (!Object.hasOwn(defined, key)) return [`${path}.${key} is not defined by the schema`];
    const below = defined[key];
    return below === null || below === undefined ? [] : undefinedCapabilities(value, below, `${path}.${key}`);
  });
}
